import type { Knex } from 'knex';
import { CLIP_COLUMNS, CONTENT_COLUMNS, type ContentTable } from '../shared/content-page';
import type { AnchorKey, KeyColumn, PageAnchors } from '../shared/page-anchors';
import { buildAnchors, encodedColumn, photoCountColumn, visibleOnly } from '../shared/repository';

export type UpdateType = 'photo' | 'video' | 'vod';

export const TABLE_OF: Record<UpdateType, ContentTable> = { photo: 'photosets', video: 'videos', vod: 'vods' };
const TYPES = Object.keys(TABLE_OF) as UpdateType[];
// Ties on the same day: photos, then videos, then VODs, each newest id first.
const RANK: Record<UpdateType, number> = { photo: 0, video: 1, vod: 2 };

const FEED_KEYS: readonly KeyColumn[] = [
  { column: 'datetoupload', direction: 'desc' },
  { column: 'rank_', direction: 'asc' },
  { column: 'id', direction: 'desc' },
];

export interface UpdateKey {
  type: UpdateType;
  id: number;
  datetoupload: string;
}

export interface UpdateRow {
  id: number;
  path: string;
  updatename: string;
  modelname: string;
  datetoupload: string;
  /** Photo sets only. */
  photocount?: number | string;
  /** Videos and VODs only. */
  duration?: number | string | null;
  encoded?: number | string;
}

function feedSource(knex: Knex): Knex.QueryBuilder {
  const [first, ...rest] = TYPES.map((type) =>
    visibleOnly(knex(TABLE_OF[type]).select('datetoupload', knex.raw(`${RANK[type]} as rank_`), 'id'), knex, TABLE_OF[type]),
  );
  return first!.unionAll(rest);
}

/** Rows of one type that come after `anchor` in the feed order; the type's rank is a constant. */
function afterAnchor(query: Knex.QueryBuilder, type: UpdateType, anchor: AnchorKey): Knex.QueryBuilder {
  const date = anchor.datetoupload!;
  const rank = Number(anchor.rank_);
  if (RANK[type] > rank) return query.where('datetoupload', '<=', date);
  if (RANK[type] < rank) return query.where('datetoupload', '<', date);
  return query.where((q) =>
    q.where('datetoupload', '<', date).orWhere((same) => same.where('datetoupload', '=', date).where('id', '<', anchor.id!)),
  );
}

const feedOrder = (a: UpdateKey, b: UpdateKey) =>
  a.datetoupload !== b.datetoupload ? (a.datetoupload < b.datetoupload ? 1 : -1) : RANK[a.type] - RANK[b.type] || b.id - a.id;

export const UPDATES_LIST = 'updates';

/** How the merged feed's anchors are built (also registered for warming). */
export function updatesAnchorBuilder(knex: Knex) {
  return (every: number) => buildAnchors(knex, feedSource(knex), FEED_KEYS, every);
}

/**
 * Which items fill one page of the merged feed (newest first). Each table gives its next
 * skip + pageSize keys after the page's anchor from its (datetoupload, id) index; the three short
 * lists are merged here.
 */
export async function updateKeys(knex: Knex, anchors: PageAnchors, page: number, pageSize: number): Promise<UpdateKey[]> {
  const start = await anchors.locate(UPDATES_LIST, (page - 1) * pageSize, updatesAnchorBuilder(knex));
  if (!start) return [];
  const lists = await Promise.all(
    TYPES.map(async (type) => {
      const query = visibleOnly(knex(TABLE_OF[type]), knex, TABLE_OF[type])
        .select('id', 'datetoupload')
        .orderBy('datetoupload', 'desc')
        .orderBy('id', 'desc')
        .limit(start.skip + pageSize);
      if (start.after) afterAnchor(query, type, start.after);
      const rows = (await query) as Array<{ id: number; datetoupload: string }>;
      return rows.map((r) => ({ type, id: Number(r.id), datetoupload: r.datetoupload }));
    }),
  );
  return lists
    .flat()
    .sort(feedOrder)
    .slice(start.skip, start.skip + pageSize);
}

export function rowsByIds(knex: Knex, table: ContentTable, ids: number[]): Promise<UpdateRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  const query = knex({ t: table }).whereIn('t.id', ids);
  if (table === 'photosets') return query.select([...CONTENT_COLUMNS.map((c) => `t.${c}`), photoCountColumn(knex, 'photosets', 't.id')]);
  return query.select([...CLIP_COLUMNS.map((c) => `t.${c}`), encodedColumn(knex, table === 'vods' ? 'vod' : 'video', 't.path')]);
}
