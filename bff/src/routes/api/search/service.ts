import type { SearchResult } from '@media-site/contracts/api';
import type { CachedBody } from '../../../cache/catalog-cache';
import type { ApiDeps } from '../deps';
import type { ContentTable } from '../shared/content-page';
import { durationOf, previewOf } from '../shared/facts';
import { photoSetThumbnail, videoThumbnail, vodThumbnail } from '../shared/media-urls';
import { comparator, FacetCounter, firstBy, type SearchFilters } from './filters';
import { scanFacetRows, searchContent, type SearchRow } from './repository';

export const SEARCH_LIMIT = 50;
/** The database path (index off or building) counts at most this many word matches per type. */
export const SEARCH_SCAN_MAX = 2_000;

const TABLES: readonly ContentTable[] = ['photosets', 'videos', 'vods'];
const TYPE_OF_TABLE = { photosets: 'photos', videos: 'videos', vods: 'vods' } as const;

const hit = (row: SearchRow, thumbnail: (path: string) => string) => ({
  path: row.path,
  updatename: row.updatename,
  modelname: row.modelname,
  thumbnail: thumbnail(row.path),
});

type Matches = Record<ContentTable, SearchRow[]> & { facets: SearchResult['facets'] };

const wanted = (table: ContentTable, f: SearchFilters) =>
  (f.type === undefined || f.type === TYPE_OF_TABLE[table]) && !(f.duration !== undefined && table === 'photosets');

/**
 * From the in-process index: every row holding the words (all rows when there are none), counted
 * for the facets and filtered; the first SEARCH_LIMIT in the sort's order.
 */
function fromIndex(
  index: NonNullable<ReturnType<NonNullable<ApiDeps['searchIndex']>['current']>>,
  words: readonly string[],
  f: SearchFilters,
  now: number,
): Matches {
  const counter = new FacetCounter(f, now);
  const found = {} as Record<ContentTable, SearchRow[]>;
  for (const table of TABLES) {
    const rows = words.length ? index[table].findAll(words, Number.POSITIVE_INFINITY) : index[table].all;
    // One pass: every row is counted; those passing every filter are the results, in load (A–Z) order.
    const kept: SearchRow[] = [];
    for (const row of rows) if (counter.add(table, row)) kept.push(row);
    const compare = comparator(table, f.sort ?? 'alpha');
    found[table] = compare ? firstBy(kept, compare, SEARCH_LIMIT) : kept.slice(0, SEARCH_LIMIT);
  }
  return { ...found, facets: counter.result() };
}

/** From the database: the filters and sort in SQL, the counts over at most SEARCH_SCAN_MAX matches per type. */
async function fromDatabase({ knex }: ApiDeps, words: readonly string[], f: SearchFilters, now: number): Promise<Matches> {
  const counter = new FacetCounter(f, now);
  const [results, scans] = await Promise.all([
    Promise.all(TABLES.map((table) => (wanted(table, f) ? searchContent(knex, table, words, f, now, SEARCH_LIMIT) : []))),
    Promise.all(TABLES.map((table) => scanFacetRows(knex, table, words, SEARCH_SCAN_MAX))),
  ]);
  TABLES.forEach((table, i) => {
    for (const row of scans[i]!) counter.add(table, row);
    if (scans[i]!.length >= SEARCH_SCAN_MAX) counter.capped = true;
  });
  return { photosets: results[0]!, videos: results[1]!, vods: results[2]!, facets: counter.result() };
}

/**
 * From the in-process index of the current generation when it is built; otherwise (index off, too
 * many rows, or still building after a catalog change) from the database, so a change is visible
 * at once.
 */
async function findMatches(deps: ApiDeps, words: readonly string[], f: SearchFilters, now: number): Promise<Matches> {
  const index = deps.searchIndex?.current(await deps.cache.generation());
  return index ? fromIndex(index, words, f, now) : fromDatabase(deps, words, f, now);
}

/** The cache key's filter part: fixed order, so equal filters are one entry. */
export const filtersKey = (f: SearchFilters): string =>
  ['type', 'model', 'tag', 'duration', 'date', 'sort']
    .map((k) => f[k as keyof SearchFilters])
    .map((v) => (v === undefined ? '' : encodeURIComponent(v)))
    .join('&');

/**
 * Items whose title or model name holds every word, in any order, passing the filters, with the
 * counts per filter value. `words` come folded from searchTermParam (foldForSearch, as search_text
 * is written), so the match ignores case and diacritics for every script on every backend; none
 * (the filters-only search) matches every item. A release window counts from the day of the
 * request, which is in the cache key, so a cached window never outlives its day.
 */
export function search(
  deps: ApiDeps,
  words: readonly string[],
  f: SearchFilters = {},
  /** Runs before an answer is computed (not for a cached one): the per-address limit. */
  beforeCompute?: () => Promise<void>,
): Promise<CachedBody> {
  const now = Date.now();
  const day = f.date === undefined ? '' : new Date(now).toISOString().slice(0, 10);
  // Words are sorted and unique: any order of the same words is one cache entry. A space cannot be
  // inside a word, so the key is unambiguous.
  return deps.cache.get(`search:${words.join(' ')}?${filtersKey(f)}${day && `@${day}`}`, async () => {
    await beforeCompute?.();
    const { photosets, videos, vods, facets } = await findMatches(deps, words, f, now);
    const result: SearchResult = {
      photos: photosets.map((row) => ({ ...hit(row, photoSetThumbnail), photocount: Number(row.photocount ?? 0) })),
      videos: videos.map((row) => ({
        ...hit(row, videoThumbnail),
        duration: durationOf(row.duration),
        preview: previewOf('video', row.path, row.encoded),
      })),
      vods: vods.map((row) => ({
        ...hit(row, vodThumbnail),
        duration: durationOf(row.duration),
        preview: previewOf('vod', row.path, row.encoded),
      })),
      facets,
    };
    return result;
  });
}
