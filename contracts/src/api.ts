import { z } from 'zod';

/**
 * The catalog API's JSON shapes (spec §3 plus the fields this site adds). The bff builds its
 * answers as these types and its tests parse every catalog answer with these schemas (strict: no
 * field more, none missing); the SPA takes its types from here with `import type`, so it never
 * ships zod and can never drift from what is sent.
 */
const listed = {
  path: z.string(),
  updatename: z.string(),
  modelname: z.string(),
  datetoupload: z.string(),
  /** Site-absolute thumbnail URL under /members (public variants); always sent. */
  thumbnail: z.string(),
};

/** How many photos a set holds ("24 photos" on its card). */
const photocount = z.number().int().nonnegative();
/** A video's or VOD's running time in whole seconds; null while unknown (not probed or encoded yet). */
const duration = z.number().int().positive().nullable();
/** A video's or VOD's public WebVTT thumbnails track (its seek-bar sprite) once encoded; null before. */
const preview = z.string().nullable();

export const CONTENT_TYPES = ['photo', 'video', 'vod'] as const;
export const contentType = z.enum(CONTENT_TYPES);
export type ContentType = z.infer<typeof contentType>;

/** `photocount` is null for videos and VODs; `duration` and `preview` are null for photo sets (and for clips not measured or encoded yet). */
export const updateItem = z.strictObject({
  type: contentType,
  id: z.number().int(),
  ...listed,
  photocount: photocount.nullable(),
  duration,
  preview,
});
export type UpdateItem = z.infer<typeof updateItem>;

export const photoItem = z.strictObject({ photos_id: z.number().int(), ...listed, photocount });
export type PhotoItem = z.infer<typeof photoItem>;

/** GET /api/photos/set/:folder: the list item, the number of photos and their file names in order. */
/** An item page's tags (folded, A–Z): each links to the search filtered by it. */
const tags = z.array(z.string());
export const photoSetDetail = z.strictObject({ ...photoItem.shape, count: z.number().int(), files: z.array(z.string()), tags });
export type PhotoSetDetail = z.infer<typeof photoSetDetail>;

export const videoItem = z.strictObject({ video_id: z.number().int(), ...listed, duration, preview });
export type VideoItem = z.infer<typeof videoItem>;

/** GET /api/video/prename/:folder: spec §3's prename, the download path, and the list item. */
export const videoPrename = z.strictObject({ ...videoItem.shape, prename: z.string(), download: z.string(), tags });
export type VideoPrename = z.infer<typeof videoPrename>;

export const vodItem = z.strictObject({
  vod_id: z.number().int(),
  ...listed,
  prename: z.string(),
  format: z.number().int(),
  /** A number (MySQL's DECIMAL arrives as a string; the bff converts). */
  price: z.number(),
  duration,
  preview,
});
export type VodItem = z.infer<typeof vodItem>;

export const vodDetail = z.strictObject({ ...vodItem.shape, download: z.string(), tags });
export type VodDetail = z.infer<typeof vodDetail>;

/** GET /api/freephotos/:page: a free set's card (its first photo as the picture; null when it has none). */
export const freeSetItem = z.strictObject({ path: z.string(), updatename: z.string(), thumbnail: z.string().nullable(), photocount });
export type FreeSetItem = z.infer<typeof freeSetItem>;

/** GET /api/coming-soon: a teased item not released yet ("Coming soon"): no path and no link, only the card; `releaseAt` is unix ms. */
export const teaserItem = z.strictObject({
  type: z.enum(['photoset', 'video', 'vod']),
  title: z.string(),
  modelname: z.string(),
  releaseAt: z.number().int(),
  thumbnail: z.string(),
});
export type TeaserItem = z.infer<typeof teaserItem>;

export const modelItem = z.strictObject({ modelname: z.string(), thumbnail: z.string().nullable() });
export type ModelItem = z.infer<typeof modelItem>;

const modelContent = { path: z.string(), updatename: z.string(), datetoupload: z.string(), thumbnail: z.string() };
export const modelDetail = z.strictObject({
  modelname: z.string(),
  thumbnail: z.string().nullable(),
  photos: z.array(z.strictObject({ photo_id: z.number().int(), ...modelContent, photocount })),
  videos: z.array(z.strictObject({ video_id: z.number().int(), ...modelContent, duration, preview })),
  vods: z.array(z.strictObject({ vod_id: z.number().int(), ...modelContent, duration, preview })),
});
export type ModelDetail = z.infer<typeof modelDetail>;

const searchHitFields = { path: z.string(), updatename: z.string(), modelname: z.string(), thumbnail: z.string() };
export const searchPhotoHit = z.strictObject({ ...searchHitFields, photocount });
export const searchClipHit = z.strictObject({ ...searchHitFields, duration, preview });
export type SearchPhotoHit = z.infer<typeof searchPhotoHit>;
export type SearchClipHit = z.infer<typeof searchClipHit>;
/** What every hit has, whatever its group. */
export type SearchHit = SearchPhotoHit | SearchClipHit;

const count = z.number().int().nonnegative();
/**
 * How many items each filter value would give: per type under every other filter; per duration,
 * release window and tag under every other filter and the type. `capped`: the counts stopped at a
 * bound (the database path counts at most SEARCH_SCAN_MAX matches per type) and are "at least".
 */
export const searchFacets = z.strictObject({
  types: z.strictObject({ photos: count, videos: count, vods: count }),
  durations: z.strictObject({ short: count, medium: count, long: count }),
  dates: z.strictObject({ week: count, month: count, year: count }),
  tags: z.array(z.strictObject({ tag: z.string(), count })),
  capped: z.boolean(),
});
export type SearchFacets = z.infer<typeof searchFacets>;

export const searchResult = z.strictObject({
  photos: z.array(searchPhotoHit),
  videos: z.array(searchClipHit),
  vods: z.array(searchClipHit),
  facets: searchFacets,
});
export type SearchResult = z.infer<typeof searchResult>;
