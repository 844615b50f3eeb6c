import type Router from '@koa/router';
import type { RouterContext, RouterMiddleware } from '@koa/router';
import type { z } from 'zod';
import type { CachedBody, CatalogCache } from '../../../cache/catalog-cache';
import { pathOf, writeCachedAnswer } from '../../../cache/fast-path';
import { parseParam } from './params';

/**
 * Declares a route replayable: a public catalog GET whose validated answer is the same bytes for
 * anyone asking for the same path. The answer goes out through the one cached-answer writer and is
 * remembered under the request path, so cache/fast-path.ts answers repeats before Koa. Only routes
 * declared with this are ever replayed; anything that depends on who asks must not use it.
 */
export function replayable(
  cache: CatalogCache,
  answer: (ctx: RouterContext) => Promise<CachedBody>,
  /** The key it is replayed under: by default the path (the query ignored); undefined: not replayed. */
  replayKey: (ctx: RouterContext) => string | undefined = (ctx) => pathOf(ctx.req.url ?? ctx.path),
): RouterMiddleware {
  return async function answerReplayable(ctx) {
    const cached = await answer(ctx);
    const key = replayKey(ctx);
    if (key !== undefined) cache.rememberPath(key, cached);
    // The read deadline may have answered 503 already: this late answer is dropped.
    if (ctx.res.headersSent) return;
    ctx.respond = false;
    writeCachedAnswer(ctx.req, ctx.res, cached);
  };
}

/**
 * Registers a replayable catalog GET whose answer depends on one validated path parameter: the
 * route's last segment (`/photos/:page` passes the parsed `page`).
 */
export function replayableGet<T>(
  router: Router,
  cache: CatalogCache,
  path: string,
  schema: z.ZodType<T, string>,
  answer: (value: T) => Promise<CachedBody>,
): void {
  const name = /:(\w+)$/.exec(path)?.[1];
  if (!name) throw new Error(`route ${path} does not end in a :parameter`);
  router.get(
    path,
    replayable(cache, (ctx) => answer(parseParam(schema, ctx.params[name]))),
  );
}
