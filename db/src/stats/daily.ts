import type { Knex } from 'knex';

// What sells, by day (migration 032, content_stats_daily): counters added to as things happen, and
// the console's questions over a window of days (per item, per model, per day). One upsert per
// event on the (day, type, id) row; a window's question reads at most days × items-with-activity
// rows through the primary key (day first) or, for one item or one model's items, the
// (type, id, day) index.

export const STATS_TABLE = 'content_stats_daily';
const DAY_MS = 86_400_000;

/** An item as the stats name it; 'model' is a follow (a model saved to My list). */
export type StatItemType = 'photo' | 'video' | 'vod' | 'model';
export type StatCounter = 'plays' | 'completions' | 'downloads' | 'saves' | 'sales';

/** The content table each item type lives in. */
export const STAT_ITEM_TABLE = { photo: 'photosets', video: 'videos', vod: 'vods' } as const;
export type StatContentType = keyof typeof STAT_ITEM_TABLE;
const CONTENT_TYPES = Object.keys(STAT_ITEM_TABLE) as StatContentType[];

/** Whole UTC days since 1970-01-01: the `day` column. */
export const statDay = (ms: number): number => Math.floor(ms / DAY_MS);
/** `YYYY-MM-DD` of a stats day. */
export const statDayText = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

/**
 * Adds one to a counter of an item's row for the day of `now` (and, for a sale, its cents to the
 * revenue), creating the row. Inside the caller's transaction when it passes one (a VOD sale is
 * counted with its settlement, so a rolled-back sale counts nothing).
 */
export async function countStat(
  db: Knex | Knex.Transaction,
  item: { type: StatItemType; id: number },
  counter: StatCounter,
  now: number,
  revenueCents = 0,
): Promise<void> {
  const column = (name: string) => db.raw('?? + ?', [`${STATS_TABLE}.${name}`, name === 'revenue_cents' ? revenueCents : 1]);
  await db(STATS_TABLE)
    .insert({ day: statDay(now), content_type: item.type, content_id: item.id, [counter]: 1, revenue_cents: revenueCents })
    .onConflict(['day', 'content_type', 'content_id'])
    .merge({ [counter]: column(counter), ...(revenueCents ? { revenue_cents: column('revenue_cents') } : {}) });
}

/** Cents of a decimal amount string ("9.99" → 999), as amounts are stored. */
export function amountCents(amount: string): number {
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(amount.trim());
  if (!match) return 0;
  return Number(match[1]) * 100 + Number((match[2] ?? '0').padEnd(2, '0'));
}

export interface StatSums {
  plays: number;
  completions: number;
  downloads: number;
  saves: number;
  sales: number;
  revenueCents: number;
}
export type StatSort = 'plays' | 'completions' | 'downloads' | 'saves' | 'sales' | 'revenue';

/** What a question covers: a window of days (both included), and optionally a type, one model's items, one item. */
export interface StatsFilter {
  fromDay: number;
  toDay: number;
  type?: StatContentType | undefined;
  modelId?: number | undefined;
  /** With `type`: one item. */
  itemId?: number | undefined;
}

const SUM_COLUMNS = ['plays', 'completions', 'downloads', 'saves', 'sales', 'revenue_cents'] as const;
const SORT_COLUMN: Record<StatSort, string> = {
  plays: 'plays',
  completions: 'completions',
  downloads: 'downloads',
  saves: 'saves',
  sales: 'sales',
  revenue: 'revenue_cents',
};

const sumsOf = (db: Knex, table = 's') => SUM_COLUMNS.map((c) => db.raw(`coalesce(sum(${table}.${c}), 0) as ${c}`));

function sums(row: Record<string, unknown> | undefined): StatSums {
  const n = (key: string) => Number(row?.[key] ?? 0);
  return {
    plays: n('plays'),
    completions: n('completions'),
    downloads: n('downloads'),
    saves: n('saves'),
    sales: n('sales'),
    revenueCents: n('revenue_cents'),
  };
}

/** The item rows a filter chooses (never a model's follows). */
function itemRows(db: Knex, f: StatsFilter): Knex.QueryBuilder {
  const types = f.type ? [f.type] : CONTENT_TYPES;
  const q = db(`${STATS_TABLE} as s`).whereBetween('s.day', [f.fromDay, f.toDay]).whereIn('s.content_type', types);
  if (f.itemId !== undefined) q.where('s.content_id', f.itemId);
  if (f.modelId !== undefined) {
    const modelId = f.modelId;
    q.where((any) => {
      for (const type of types) {
        any.orWhere((one) =>
          one.where('s.content_type', type).whereIn('s.content_id', db(STAT_ITEM_TABLE[type]).select('id').where('model_id', modelId)),
        );
      }
    });
  }
  return q;
}

/** A model's id by her exact name, for a filter; undefined when there is none. */
export async function statsModelId(db: Knex, name: string): Promise<number | undefined> {
  const row = (await db('models').where({ modelname: name }).first('id', 'modelname')) as { id: unknown; modelname: string } | undefined;
  return row && row.modelname === name ? Number(row.id) : undefined;
}

/** An item's id by its folder, for a filter; undefined when there is none. */
export async function statsItemId(db: Knex, type: StatContentType, path: string): Promise<number | undefined> {
  const row = (await db(STAT_ITEM_TABLE[type]).where({ path }).first('id', 'path')) as { id: unknown; path: string } | undefined;
  return row && row.path === path ? Number(row.id) : undefined;
}

/** The window's totals for what the filter chose. */
export async function statTotals(db: Knex, f: StatsFilter): Promise<StatSums> {
  const row = (await itemRows(db, f).select(sumsOf(db)).first()) as Record<string, unknown> | undefined;
  return sums(row);
}

/** Every day of the window, oldest first, zeros included. */
export async function statsPerDay(db: Knex, f: StatsFilter): Promise<Array<{ day: number } & StatSums>> {
  const rows = (await itemRows(db, f)
    .select('s.day', ...sumsOf(db))
    .groupBy('s.day')) as Array<Record<string, unknown>>;
  const byDay = new Map(rows.map((r) => [Number(r.day), sums(r)]));
  const days: Array<{ day: number } & StatSums> = [];
  for (let day = f.fromDay; day <= f.toDay; day++) days.push({ day, ...(byDay.get(day) ?? sums(undefined)) });
  return days;
}

export interface ItemStats extends StatSums {
  type: StatContentType;
  id: number;
  path: string;
  title: string;
  model: string | null;
}

/**
 * One page of items by a count, largest first (then by type and id, so pages never overlap), with
 * their folder, title and model. An item deleted since is left out of its page (rare; the page is
 * one short).
 */
export async function statsByItem(db: Knex, f: StatsFilter, sort: StatSort, limit: number, offset: number): Promise<ItemStats[]> {
  const rows = (await itemRows(db, f)
    .select('s.content_type', 's.content_id', ...sumsOf(db))
    .groupBy('s.content_type', 's.content_id')
    .orderBy([
      { column: SORT_COLUMN[sort], order: 'desc' },
      { column: 's.content_type', order: 'asc' },
      { column: 's.content_id', order: 'asc' },
    ])
    .limit(limit)
    .offset(offset)) as Array<Record<string, unknown>>;
  const facts = new Map<string, { path: string; title: string; model: string | null }>();
  for (const type of CONTENT_TYPES) {
    const ids = rows.filter((r) => r.content_type === type).map((r) => Number(r.content_id));
    if (!ids.length) continue;
    const found = (await db(STAT_ITEM_TABLE[type]).whereIn('id', ids).select('id', 'path', 'updatename', 'modelname')) as Array<
      Record<string, unknown>
    >;
    for (const r of found) {
      facts.set(`${type} ${Number(r.id)}`, {
        path: String(r.path),
        title: String(r.updatename),
        model: r.modelname ? String(r.modelname) : null,
      });
    }
  }
  return rows.flatMap((r) => {
    const type = r.content_type as StatContentType;
    const id = Number(r.content_id);
    const known = facts.get(`${type} ${id}`);
    return known ? [{ type, id, ...known, ...sums(r) }] : [];
  });
}

export interface ModelStats extends StatSums {
  id: number;
  name: string;
  /** Members who followed her in the window. */
  follows: number;
}

/** One page of models by the sum of their items' counts, largest first (then by name). */
export async function statsByModel(
  db: Knex,
  f: Pick<StatsFilter, 'fromDay' | 'toDay' | 'type'>,
  sort: StatSort,
  limit: number,
  offset: number,
): Promise<ModelStats[]> {
  const types = f.type ? [f.type] : CONTENT_TYPES;
  // Each item's window first (the day range of the primary key), then its model: the joins read one
  // row per item with activity, not one per item and day.
  const perItem = db(STATS_TABLE)
    .whereBetween('day', [f.fromDay, f.toDay])
    .whereIn('content_type', [...types, 'model'])
    .select('content_type', 'content_id', ...SUM_COLUMNS.map((c) => db.raw(`sum(${c}) as ${c}`)))
    .groupBy('content_type', 'content_id')
    .as('s');
  const q = db.from(perItem);
  const owners: string[] = [];
  for (const type of types) {
    const alias = `c_${type}`;
    q.leftJoin(`${STAT_ITEM_TABLE[type]} as ${alias}`, (on) => on.on(`${alias}.id`, 's.content_id').andOnVal('s.content_type', type));
    owners.push(`${alias}.model_id`);
  }
  const owner = `coalesce(${owners.join(', ')}, case when s.content_type = 'model' then s.content_id end)`;
  const itemOnly = (c: string) => db.raw(`coalesce(sum(case when s.content_type <> 'model' then s.${c} else 0 end), 0) as ${c}`);
  const rows = (await q
    .joinRaw(`join models m on m.id = ${owner}`)
    .select(
      'm.id',
      'm.modelname',
      ...SUM_COLUMNS.map(itemOnly),
      db.raw(`coalesce(sum(case when s.content_type = 'model' then s.saves else 0 end), 0) as follows`),
    )
    .groupBy('m.id', 'm.modelname')
    .orderBy([
      { column: SORT_COLUMN[sort], order: 'desc' },
      { column: 'm.modelname', order: 'asc' },
    ])
    .limit(limit)
    .offset(offset)) as Array<Record<string, unknown>>;
  return rows.map((r) => ({ id: Number(r.id), name: String(r.modelname), follows: Number(r.follows ?? 0), ...sums(r) }));
}
