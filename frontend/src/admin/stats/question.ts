import {
  MONEY_SORTS,
  STATS_DEFAULT_DAYS,
  STATS_SORTS,
  STATS_TYPES,
  STATS_WINDOWS,
  type StatsSort,
  type StatsType,
} from '@media-site/contracts/stats-vocabulary';

/** The Stats screen's question, kept in the address (reload, Back and a shared link keep it). */
export interface StatsQuestion {
  days: number;
  by: 'item' | 'model';
  type: StatsType | '';
  /** One model's items. */
  model: string;
  /** One item (with type): its days. */
  path: string;
  sort: StatsSort;
  page: number;
}

const oneOf = <T extends string>(values: readonly T[], value: string | null, fallback: T): T =>
  values.includes(value as T) ? (value as T) : fallback;

/** What the address asks, anything unknown read as the default (the API would refuse it). */
export function questionOf(params: URLSearchParams, money: boolean): StatsQuestion {
  const days = Number(params.get('days'));
  const sort = oneOf(STATS_SORTS, params.get('sort'), 'plays');
  const type = oneOf<StatsType | ''>(STATS_TYPES, params.get('type'), '');
  const by = params.get('by') === 'model' ? 'model' : 'item';
  const page = Number(params.get('page'));
  return {
    days: (STATS_WINDOWS as readonly number[]).includes(days) ? days : STATS_DEFAULT_DAYS,
    by,
    type,
    model: by === 'item' ? (params.get('model') ?? '') : '',
    path: by === 'item' && type ? (params.get('path') ?? '') : '',
    sort: !money && MONEY_SORTS.includes(sort) ? 'plays' : sort,
    page: Number.isInteger(page) && page > 1 ? page : 1,
  };
}

/** The address's parameters for a question: only what differs from the defaults. */
export function paramsOf(q: StatsQuestion): URLSearchParams {
  const p = new URLSearchParams();
  if (q.days !== STATS_DEFAULT_DAYS) p.set('days', String(q.days));
  if (q.by !== 'item') p.set('by', q.by);
  if (q.type) p.set('type', q.type);
  if (q.model) p.set('model', q.model);
  if (q.path) p.set('path', q.path);
  if (q.sort !== 'plays') p.set('sort', q.sort);
  if (q.page > 1) p.set('page', String(q.page));
  return p;
}
