import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { BadRequestError } from '../../../errors';
import { addressBlock } from '../../../security/client-address';
import { enforceRateLimit } from '../../../security/rate-limit';
import type { ApiDeps } from '../deps';
import { parseParam } from '../shared/params';
import { replayable } from '../shared/respond';
import type { SearchFilters } from './filters';
import { searchFiltersQuery, searchTermParam } from './schema';
import { search } from './service';

// An answer with a release window depends on the day too, so it is not replayed by address; the
// others are replayed under the whole address, query included.
const replayKey = (f: SearchFilters) => (ctx: RouterContext) => (f.date === undefined ? (ctx.req.url ?? ctx.url) : undefined);

/**
 * A search the cache cannot answer counts and sorts every match: at most RATE_LIMIT_SEARCH_PER_MINUTE
 * of those per address block (429), so varying a term or a filter cannot buy CPU without bound.
 * Cached answers, replayed or not, never count. Without account deps (catalog-only tests), no limit.
 */
function computeLimit(deps: ApiDeps, ctx: RouterContext): (() => Promise<void>) | undefined {
  const account = deps.account;
  if (!account) return undefined;
  return () =>
    enforceRateLimit(
      account.limiter,
      `search:${addressBlock(ctx.ip)}`,
      account.settings.searchesPerMinute,
      60,
      'too many searches from this address; wait a minute and try again',
    );
}

/** The filters from the query; a bad one is a 400 with its own sentence (each names its parameter). */
function parseFilters(ctx: RouterContext): SearchFilters {
  const parsed = searchFiltersQuery.safeParse(ctx.query);
  if (!parsed.success) throw new BadRequestError(parsed.error.issues[0]?.message ?? 'bad search filter');
  return parsed.data;
}

export function searchRoutes(router: Router, deps: ApiDeps): void {
  router.get('/search/:term', (ctx, next) => {
    const words = parseParam(searchTermParam, ctx.params.term);
    const f = parseFilters(ctx);
    return replayable(deps.cache, () => search(deps, words, f, computeLimit(deps, ctx)), replayKey(f))(ctx, next);
  });
  // Filters without words ("every VOD tagged beach, longest first"): at least one filter.
  router.get('/search', (ctx, next) => {
    const f = parseFilters(ctx);
    if (f.type === undefined && f.model === undefined && f.tag === undefined && f.duration === undefined && f.date === undefined)
      throw new BadRequestError('give a search term or at least one filter (type, model, tag, duration, date)');
    return replayable(deps.cache, () => search(deps, [], f, computeLimit(deps, ctx)), replayKey(f))(ctx, next);
  });
}
