import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import { notModified } from '../../cache/fast-path';

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
