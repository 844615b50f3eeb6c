import type { RouterContext, RouterMiddleware } from '@koa/router';
import type { CachedBody, CatalogCache } from '../../../cache/catalog-cache';
import { pathOf, writeCachedAnswer } from '../../../cache/fast-path';

/**
 * Declares a route replayable: a public catalog GET whose validated answer is the same bytes for
 * anyone asking for the same path. The answer goes out through the one cached-answer writer and is
 * remembered under the request path, so cache/fast-path.ts answers repeats before Koa. Only routes
 * declared with this are ever replayed; anything that depends on who asks must not use it.
 */
export function replayable(cache: CatalogCache, answer: (ctx: RouterContext) => Promise<CachedBody>): RouterMiddleware {
  return async function answerReplayable(ctx) {
    const cached = await answer(ctx);
    cache.rememberPath(pathOf(ctx.req.url ?? ctx.path), cached);
    // The read deadline may have answered 503 already: this late answer is dropped.
    if (ctx.res.headersSent) return;
    ctx.respond = false;
    writeCachedAnswer(ctx.req, ctx.res, cached);
  };
}
