import {
  DATE_WINDOW_DAYS,
  DURATION_RANGE_S,
  SEARCH_DATES,
  SEARCH_TAG_FACETS,
  type SearchDate,
  type SearchDuration,
  type SearchSort,
  type SearchType,
} from '@media-site/contracts/search-filters';
import type { SearchFacets } from '@media-site/contracts/api';
import type { ContentTable } from '../shared/content-page';

/** The filters of one search, checked (schema.ts); absent ones do not filter. */
export interface SearchFilters {
  type?: SearchType | undefined;
  /** Exactly this model name. */
  model?: string | undefined;
  /** One tag, folded as stored (db content/tags.ts). */
  tag?: string | undefined;
  duration?: SearchDuration | undefined;
  date?: SearchDate | undefined;
  sort?: SearchSort | undefined;
}

/** The facts a filter, a sort or a count reads of a row (the index holds them; the database path reads them). */
export interface FacetRow {
  id: number;
  updatename: string;
  modelname: string;
  /** YYYY-MM-DD: the release day (a scheduled item gets its release day, db content/schedule.ts). */
  datetoupload: string;
  duration?: number | string | null | undefined;
  photocount?: number | string | undefined;
  tags: readonly string[];
}

/** The earliest release day a date window keeps, as `YYYY-MM-DD` (UTC, like datetoupload). */
export function dateFloor(window: SearchDate, now: number): string {
  return new Date(now - (DATE_WINDOW_DAYS[window] - 1) * 86_400_000).toISOString().slice(0, 10);
}

export const durationBucket = (seconds: number | string | null | undefined): SearchDuration | undefined => {
  const s = Number(seconds ?? 0);
  if (!(s > 0)) return undefined;
  return s < DURATION_RANGE_S.short[1] ? 'short' : s < DURATION_RANGE_S.medium[1] ? 'medium' : 'long';
};

// Which filters a row fails, one bit each (0: it passes them all).
const MODEL = 1;
const TAG = 2;
const DURATION = 4;
const DATE = 8;

type DateFloors = Record<SearchDate, string>;
const floorsAt = (now: number): DateFloors => Object.fromEntries(SEARCH_DATES.map((d) => [d, dateFloor(d, now)])) as DateFloors;

/**
 * The filters a row fails, as bits: each row is tested once, and a count per value of one filter
 * (every other filter applied) masks that filter's bit. A duration filter leaves out photo sets,
 * which have no running time. `datetoupload` is `YYYY-MM-DD` (both loaders cut it so).
 */
function misses(row: FacetRow, table: ContentTable, f: SearchFilters, floor: string | undefined): number {
  let miss = 0;
  if (f.model !== undefined && row.modelname !== f.model) miss |= MODEL;
  if (f.tag !== undefined && !row.tags.includes(f.tag)) miss |= TAG;
  if (f.duration !== undefined && (table === 'photosets' || durationBucket(row.duration) !== f.duration)) miss |= DURATION;
  if (floor !== undefined && row.datetoupload < floor) miss |= DATE;
  return miss;
}

const TYPE_OF_TABLE: Record<ContentTable, SearchType> = { photosets: 'photos', videos: 'videos', vods: 'vods' };

/** Counting state across the three tables (facets()). */
export class FacetCounter {
  private readonly types: Record<SearchType, number> = { photos: 0, videos: 0, vods: 0 };
  private readonly durations: Record<SearchDuration, number> = { short: 0, medium: 0, long: 0 };
  private readonly dates: Record<SearchDate, number> = { week: 0, month: 0, year: 0 };
  private readonly tags = new Map<string, number>();
  private readonly floors: DateFloors;
  private readonly floor: string | undefined;
  capped = false;

  constructor(
    private readonly f: SearchFilters,
    now: number,
  ) {
    this.floors = floorsAt(now);
    this.floor = f.date === undefined ? undefined : this.floors[f.date];
  }

  /**
   * Counts one row that matched the words: under its type when it passes every filter; under its
   * duration, date window and tags when it passes every other filter and the type filter. True when
   * it passes every filter and the type: a result.
   */
  add(table: ContentTable, row: FacetRow): boolean {
    const { f, floors } = this;
    const miss = misses(row, table, f, this.floor);
    if (miss === 0) this.types[TYPE_OF_TABLE[table]]++;
    if (f.type !== undefined && f.type !== TYPE_OF_TABLE[table]) return false;
    if ((miss & ~DURATION) === 0 && table !== 'photosets') {
      const bucket = durationBucket(row.duration);
      if (bucket) this.durations[bucket]++;
    }
    if ((miss & ~DATE) === 0) {
      const day = row.datetoupload;
      if (day >= floors.year) {
        this.dates.year++;
        if (day >= floors.month) this.dates.month++;
        if (day >= floors.week) this.dates.week++;
      }
    }
    if ((miss & ~TAG) === 0) for (const tag of row.tags) this.tags.set(tag, (this.tags.get(tag) ?? 0) + 1);
    return miss === 0;
  }

  result(): SearchFacets {
    const tags = [...this.tags]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, SEARCH_TAG_FACETS)
      .map(([tag, count]) => ({ tag, count }));
    // The filtered tag is listed even when it is not among the most frequent, so it can be cleared.
    if (this.f.tag !== undefined && !tags.some((t) => t.tag === this.f.tag))
      tags.push({ tag: this.f.tag, count: this.tags.get(this.f.tag) ?? 0 });
    return { types: { ...this.types }, durations: { ...this.durations }, dates: { ...this.dates }, tags, capped: this.capped };
  }
}

const byNewest = (a: FacetRow, b: FacetRow) => (a.datetoupload < b.datetoupload ? 1 : a.datetoupload > b.datetoupload ? -1 : b.id - a.id);
const lengthOf = (table: ContentTable, row: FacetRow) => Number((table === 'photosets' ? row.photocount : row.duration) ?? 0) || 0;

/**
 * The order of a sort over rows met in A–Z order (the index's load order, which is the database's
 * ORDER BY updatename, id): firstBy keeps ties in the order met, so "longest" ties stay A–Z as the
 * database path sorts them. A–Z itself is that order: no comparison.
 */
export function comparator(table: ContentTable, sort: SearchSort): ((a: FacetRow, b: FacetRow) => number) | undefined {
  if (sort === 'newest') return byNewest;
  if (sort === 'longest') return (a, b) => lengthOf(table, b) - lengthOf(table, a);
  return undefined;
}

/** The first `limit` of `rows` in `compare` order, ties in the order met, without sorting them all (rows may be 100,000). */
export function firstBy<T>(rows: Iterable<T>, compare: (a: T, b: T) => number, limit: number): T[] {
  const top: T[] = [];
  for (const row of rows) {
    if (top.length === limit && compare(row, top[limit - 1]!) >= 0) continue;
    let at = top.length;
    while (at > 0 && compare(row, top[at - 1]!) < 0) at--;
    top.splice(at, 0, row);
    if (top.length > limit) top.pop();
  }
  return top;
}
