// The search page's filters and sorts, shared by the bff (which checks them) and the SPA (which
// offers them). No zod here: the SPA imports it (tools/boundaries/graph.mjs, BROWSER_CONTRACTS).

export const SEARCH_TYPES = ['photos', 'videos', 'vods'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

/** alpha: title A–Z (the default, as before filters); newest: release day, newest first; longest: running time (photo sets: most photos). */
export const SEARCH_SORTS = ['alpha', 'newest', 'longest'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

/** Running time of videos and VODs: under 10 minutes, 10 to 30, 30 and more. Photo sets have none. */
export const SEARCH_DURATIONS = ['short', 'medium', 'long'] as const;
export type SearchDuration = (typeof SEARCH_DURATIONS)[number];
export const DURATION_RANGE_S: Record<SearchDuration, readonly [number, number]> = {
  short: [0, 600],
  medium: [600, 1800],
  long: [1800, Number.POSITIVE_INFINITY],
};

/** Released within the last 7, 31 or 366 days (the release day counts, as listings date it). */
export const SEARCH_DATES = ['week', 'month', 'year'] as const;
export type SearchDate = (typeof SEARCH_DATES)[number];
export const DATE_WINDOW_DAYS: Record<SearchDate, number> = { week: 7, month: 31, year: 366 };

export const SORT_LABEL: Record<SearchSort, string> = { alpha: 'A–Z', newest: 'Newest', longest: 'Longest' };
export const DURATION_LABEL: Record<SearchDuration, string> = { short: 'Under 10 min', medium: '10–30 min', long: 'Over 30 min' };
export const DATE_LABEL: Record<SearchDate, string> = { week: 'Past week', month: 'Past month', year: 'Past year' };

/** A tag: folded like search text (lower case, no accents), letters, digits, spaces and hyphens. */
export const TAG_MAX = 32;
export const TAGS_PER_ITEM_MAX = 12;
/** How many tags the search answer counts (the most frequent among the matches). */
export const SEARCH_TAG_FACETS = 20;
