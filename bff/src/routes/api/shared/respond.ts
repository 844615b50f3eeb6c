import { createHash } from 'node:crypto';
import type { RouterContext, RouterMiddleware } from '@koa/router';
import type { Context } from 'koa';
import type { CachedBody, CatalogCache } from '../../../cache/catalog-cache';
import { notModified, pathOf, writeCachedAnswer } from '../../../cache/fast-path';

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

/**
 * The media service's lists (`/internal/*`): never stored by a cache, and a 304 when the poller's
 * If-None-Match still matches, so a short poll interval costs one small query and no body.
 */
export function sendInternalList(ctx: Context, list: Record<string, unknown>): void {
  const body = JSON.stringify(list);
  const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
  ctx.set('Cache-Control', 'no-store');
  ctx.set('ETag', etag);
  if (notModified(ctx.req.headers['if-none-match'], etag)) {
    ctx.status = 304;
    return;
  }
  ctx.type = 'application/json';
  ctx.body = body;
}
