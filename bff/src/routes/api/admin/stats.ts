import type Router from '@koa/router';
import type { Context } from 'koa';
import {
  MONEY_SORTS,
  STATS_DEFAULT_DAYS,
  STATS_PAGE_SIZE,
  statsQuery,
  type StatCounts,
  type StatsAnswer,
  type StatsRow,
} from '@media-site/contracts/content-stats';
import { roleMay } from '@media-site/db/admin';
import {
  statDay,
  statDayText,
  statsByItem,
  statsByModel,
  statsItemId,
  statsModelId,
  statsPerDay,
  statTotals,
  type StatsFilter,
  type StatSums,
} from '@media-site/db/stats';
import type { AccountDeps } from '../../../account/deps';
import { ForbiddenError, NotFoundError } from '../../../errors';
import { parseQuery } from '../shared/parse';
import { requireAdmin, signedInAdmin } from './session';

type Guard = (ctx: Context, next: () => Promise<unknown>) => Promise<void>;

/** A row's counts as the answer shows them: sales and revenue only for a role that sees payments. */
function shown(s: StatSums, money: boolean): StatCounts {
  const counts: StatCounts = { plays: s.plays, completions: s.completions, downloads: s.downloads, saves: s.saves };
  return money ? { ...counts, sales: s.sales, revenue: s.revenueCents } : counts;
}

/**
 * GET /api/admin/stats: what sells over the last 7, 30 or 90 days, per item (optionally one type,
 * one model's items, or one item's days) or per model, a page sorted by a count, with the window's
 * totals and every day's. Every role reads it (content:read); sales and revenue, and sorting by
 * them, only the roles that see payments (owner, support).
 */
export function adminStatsRoutes(router: Router, deps: AccountDeps, origin: Guard): void {
  router.get('/admin/stats', origin, requireAdmin(deps, 'content:read'), async (ctx) => {
    const q = parseQuery(statsQuery, ctx);
    const money = roleMay(signedInAdmin(ctx).role, 'payments');
    const sort = q.sort ?? 'plays';
    if (!money && MONEY_SORTS.includes(sort)) throw new ForbiddenError('sales and revenue are for the owner and support');
    const days = Number(q.days ?? STATS_DEFAULT_DAYS);
    const toDay = statDay(deps.now());
    const filter: StatsFilter = { fromDay: toDay - days + 1, toDay, type: q.type };
    if (q.model !== undefined) {
      filter.modelId = await statsModelId(deps.knex, q.model);
      if (filter.modelId === undefined) throw new NotFoundError(`no model named ${q.model}`);
    }
    if (q.path !== undefined && q.type !== undefined) {
      filter.itemId = await statsItemId(deps.knex, q.type, q.path);
      if (filter.itemId === undefined) throw new NotFoundError(`no ${q.type} in folder ${q.path}`);
    }
    const by = q.by ?? 'item';
    const page = Number(q.page ?? 1);
    const offset = (page - 1) * STATS_PAGE_SIZE;
    const [totals, perDay, found] = await Promise.all([
      statTotals(deps.knex, filter),
      statsPerDay(deps.knex, filter),
      by === 'model'
        ? statsByModel(deps.knex, filter, sort, STATS_PAGE_SIZE + 1, offset).then((rows) =>
            rows.map((r): StatsRow => ({
              type: 'model',
              path: r.name,
              title: r.name,
              model: null,
              follows: r.follows,
              ...shown(r, money),
            })),
          )
        : statsByItem(deps.knex, filter, sort, STATS_PAGE_SIZE + 1, offset).then((rows) =>
            rows.map((r): StatsRow => ({ type: r.type, path: r.path, title: r.title, model: r.model, ...shown(r, money) })),
          ),
    ]);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      from: statDayText(filter.fromDay),
      to: statDayText(toDay),
      days,
      by,
      sort,
      page,
      more: found.length > STATS_PAGE_SIZE,
      money,
      currencyCode: deps.settings.currencyCode,
      totals: shown(totals, money),
      perDay: perDay.map((d) => ({ day: statDayText(d.day), ...shown(d, money) })),
      rows: found.slice(0, STATS_PAGE_SIZE),
    } satisfies StatsAnswer;
  });
}
