/**
 * The words and bounds of "what sells" (the console's Stats, the player's play counts), without
 * zod, so the SPA and the console take them without the schemas (content-stats.ts holds those).
 */

/**
 * What a member's player reports: a play started (the first frame), played to the end. Downloads
 * are counted where their links are minted (GET /api/download-link).
 */
export const ACTIVITY_EVENTS = ['play', 'complete'] as const;
export type ActivityEvent = (typeof ACTIVITY_EVENTS)[number];

/** Played to here (a share of the running time) counts as finished: credits need not be watched. */
export const COMPLETE_SHARE = 0.9;

/** The body is one small object: anything longer is refused before it is read. */
export const ACTIVITY_BODY_LIMIT = 256;

/** Item kinds the screen lists (the site's address names: /photo, /video, /vod), and a model. */
export const STATS_TYPES = ['photo', 'video', 'vod'] as const;
export type StatsType = (typeof STATS_TYPES)[number];

/** What the table may be sorted by, largest first. `sales` and `revenue` need the payments ability. */
export const STATS_SORTS = ['plays', 'completions', 'downloads', 'saves', 'sales', 'revenue'] as const;
export type StatsSort = (typeof STATS_SORTS)[number];
export const STATS_SORT_LABELS: Record<StatsSort, string> = {
  plays: 'Plays',
  completions: 'Finished',
  downloads: 'Downloads',
  saves: 'Saves',
  sales: 'Sales',
  revenue: 'Revenue',
};
export const MONEY_SORTS: readonly StatsSort[] = ['sales', 'revenue'];

/** The windows the screen offers, in days ending today (UTC). */
export const STATS_WINDOWS = [7, 30, 90] as const;
export const STATS_DEFAULT_DAYS = 30;
/** Rows per page of the table. */
export const STATS_PAGE_SIZE = 50;
/** The last page anyone pages to: past it the question is a narrower filter. */
export const STATS_PAGE_MAX = 200;
