import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { recordListPoll, type MediaListName } from '@media-site/db/admin';
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

/**
 * Notes that a media service fetched `list` (the console dashboard's "media services' lists"):
 * it names itself with `X-Media-Instance` (host:port) and its age bound with
 * `X-Media-List-Max-Age`. At most one write per instance and list every 10 s per process; a failed
 * write is logged and never fails the list.
 */
export function listPollRecorder(knex: Knex, logger: Logger, now: () => number) {
  const written = new Map<string, number>();
  return (ctx: Context, list: MediaListName): void => {
    const instance = ctx.get('X-Media-Instance');
    if (!instance) return;
    const maxAge = Number(ctx.get('X-Media-List-Max-Age').slice(0, 6));
    recordListPoll(knex, written, { instance, list, maxAgeSeconds: Number.isFinite(maxAge) ? maxAge : null, now: now() }).catch(
      (err: unknown) => logger.warn({ err, instance, list }, 'could not record a media list poll'),
    );
  };
}
