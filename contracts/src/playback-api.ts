import { z } from 'zod';
import { PLAYABLE_TYPES, type PlayableType } from './playback-layout';
import { downloadChoice } from './member-api';

/**
 * The player's answers: GET /api/playback/{type}/{folder} and "continue watching" (/api/positions).
 * The bff builds them as these types; the SPA imports the types only.
 */

export const playableType = z.enum(PLAYABLE_TYPES as [PlayableType, ...PlayableType[]]);

/** What stands between the session and the renditions. */
export const PLAY_ACCESS = ['granted', 'sign_in', 'membership_required', 'purchase_required', 'withdrawn'] as const;
export type PlayAccess = (typeof PLAY_ACCESS)[number];

/**
 * Encoding as the player shows it: `ready` (renditions exist; a re-encode may be under way),
 * `preparing` (queued or encoding, with progress), `failed`, `unavailable` (nothing was queued).
 */
export const PLAY_STATES = ['ready', 'preparing', 'failed', 'unavailable'] as const;
export type PlayState = (typeof PLAY_STATES)[number];

export const rendition = z.strictObject({
  label: z.string(),
  url: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  bitrate: z.number(),
  /** The exact `<source type>`, codecs included. */
  type: z.string(),
});
export type Rendition = z.infer<typeof rendition>;

/** Where a member is in a video (seconds); 0 and null when nothing is stored. */
export const positionView = z.strictObject({
  seconds: z.number(),
  duration: z.number().nullable(),
  completed: z.boolean(),
  updatedAt: z.string().nullable(),
});
export type PositionView = z.infer<typeof positionView>;

/** GET /api/playback/{type}/{folder}: everything the player needs, for this session. */
export const playback = z.strictObject({
  type: playableType,
  path: z.string(),
  updatename: z.string(),
  modelname: z.string(),
  access: z.enum(PLAY_ACCESS),
  state: z.enum(PLAY_STATES),
  /** 0..1 while `preparing`. */
  progress: z.number().nullable(),
  duration: z.number().nullable(),
  poster: z.string().nullable(),
  thumbnails: z.string().nullable(),
  trailer: z.string().nullable(),
  /**
   * Largest first; empty unless `granted`. Not `ready`: the original alone (label "Original", size
   * 0 × 0) when it is an MP4, played while the renditions are made; else empty.
   */
  renditions: z.array(rendition),
  download: z.string().nullable(),
  /** Every size to download; empty unless `granted`. */
  downloads: z.array(downloadChoice),
  position: positionView.nullable(),
});
export type Playback = z.infer<typeof playback>;

/** One unfinished video or VOD of "continue watching". */
export const continueItem = z.strictObject({
  type: playableType,
  path: z.string(),
  updatename: z.string(),
  modelname: z.string(),
  thumbnail: z.string().nullable(),
  seconds: z.number(),
  duration: z.number().nullable(),
  updatedAt: z.string(),
});
export type ContinueItem = z.infer<typeof continueItem>;

/** GET /api/positions: the member's unfinished videos and VODs, most recent first. */
export const continueWatching = z.strictObject({ items: z.array(continueItem) });
export type ContinueWatching = z.infer<typeof continueWatching>;
