import { z } from 'zod';
import { CONTENT_TYPES } from './api';

/**
 * "My list": GET /api/saved and PUT/DELETE /api/saved/{type}/{key}. A saved item is a photo set,
 * video or VOD (named by its folder) or a model (named by her name). The bff builds its answers as
 * these types; the SPA imports the types only.
 */

export const SAVED_TYPES = [...CONTENT_TYPES, 'model'] as const;
export type SavedType = (typeof SAVED_TYPES)[number];
export const savedType = z.enum(SAVED_TYPES);

/** A member's list holds at most this many items; the 501st save is refused until one is removed. */
export const SAVED_LIMIT = 500;

export const savedItem = z.strictObject({
  type: savedType,
  /** The folder (photo, video, vod) or the model's name: the last part of the item's page address. */
  key: z.string(),
  /** The item's title, or the model's name. */
  title: z.string(),
  /** The model of a photo set, video or VOD; null for a model. */
  modelname: z.string().nullable(),
  thumbnail: z.string().nullable(),
  savedAt: z.string(),
});
export type SavedItem = z.infer<typeof savedItem>;

/** Newest first; items taken down or scheduled for later are left out (they come back when restored). */
export const savedList = z.strictObject({ items: z.array(savedItem), limit: z.number().int() });
export type SavedList = z.infer<typeof savedList>;

/** The answer to a save: what the list now shows for it. */
export const savedAnswer = z.strictObject({ item: savedItem });
export type SavedAnswer = z.infer<typeof savedAnswer>;

/** GET /api/saved/releases: the newest photo sets, videos and VODs of the models in My list. */
export const SAVED_RELEASES_LIMIT = 12;
export const savedRelease = z.strictObject({
  type: z.enum(CONTENT_TYPES),
  /** The item's folder. */
  key: z.string(),
  title: z.string(),
  modelname: z.string(),
  /** YYYY-MM-DD, the catalog's date (a scheduled item's is its release day). */
  date: z.string(),
  thumbnail: z.string(),
});
export type SavedRelease = z.infer<typeof savedRelease>;
export const savedReleases = z.strictObject({ items: z.array(savedRelease) });
export type SavedReleases = z.infer<typeof savedReleases>;
