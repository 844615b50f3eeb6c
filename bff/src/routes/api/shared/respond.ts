import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import type { CachedBody } from '../../../cache/catalog-cache';

/**
 * Sends pre-serialized JSON; a matching If-None-Match gets 304 and no body. Only for public catalog
 * answers: the path cache replays them to anyone asking for the same path. cache/fast-path.ts sends
 * the same answer outside Koa; its test compares the two byte for byte.
 */
export function sendCached(ctx: Context, cached: CachedBody): void {
  ctx.state.cachedAnswer = cached;
  ctx.set('ETag', cached.etag);
  ctx.set('Cache-Control', 'no-cache');
  if (ctx.get('If-None-Match') === cached.etag) {
    ctx.status = 304;
    return;
  }
  ctx.set('Content-Type', 'application/json; charset=utf-8');
  ctx.body = cached.body;
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
  if (ctx.get('If-None-Match') === etag) {
    ctx.status = 304;
    return;
  }
  ctx.type = 'application/json';
  ctx.body = body;
}
