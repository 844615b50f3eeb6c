import type Router from '@koa/router';
import type { Knex } from 'knex';
import { activeTakedowns, mediaPrefixesOf, scheduledItems, teasedItems } from '@media-site/db/content';
import { ForbiddenError } from '../../errors';
import { sendInternalList, type listPollRecorder } from './list';

/**
 * Outside /api like the revocation list: the media service polls it (MEDIA_TAKEDOWN_INTERVAL_S)
 * for folders whose files must answer 410, and for those of items scheduled for later, with their
 * release time (`scheduled`: prefix → unix ms): those answer 404 until that moment, which the media
 * service checks on every request, so files open at the release time, not at the next poll.
 * `covers` lists the one file of each teased item (a "Coming soon" card) that opens before the
 * release: its cover thumbnail, which the teaser card shows; the rest of its folder stays 404.
 * A matching If-None-Match gets a 304.
 */
export function takedownListRoute(router: Router, knex: Knex, recordPoll?: ReturnType<typeof listPollRecorder>): Router {
  return router.get('/internal/media-takedowns', async (ctx) => {
    if (ctx.get('X-Forwarded-For')) throw new ForbiddenError('internal endpoint');
    const prefixes = (await activeTakedowns(knex)).flatMap((t) => mediaPrefixesOf({ type: t.content_type, path: t.path }));
    const scheduled: Record<string, number> = {};
    for (const item of await scheduledItems(knex, Date.now()))
      for (const prefix of mediaPrefixesOf({ type: item.content_type, path: item.path })) scheduled[prefix] = item.publish_at;
    const covers = (await teasedItems(knex, Date.now())).map((t) => t.cover);
    sendInternalList(ctx, { prefixes, scheduled, covers });
    recordPoll?.(ctx, 'takedowns');
  });
}
