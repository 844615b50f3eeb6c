import type Router from '@koa/router';
import type { Knex } from 'knex';
import { activeTakedowns, mediaPrefixesOf } from '@media-site/db/reports';
import { ForbiddenError } from '../../errors';
import { sendInternalList } from './list';

/**
 * Outside /api like the revocation list: the media service polls it (MEDIA_TAKEDOWN_INTERVAL_S)
 * for folders whose files must answer 410. A matching If-None-Match gets a 304.
 */
export function takedownListRoute(router: Router, knex: Knex): Router {
  return router.get('/internal/media-takedowns', async (ctx) => {
    if (ctx.get('X-Forwarded-For')) throw new ForbiddenError('internal endpoint');
    const prefixes = (await activeTakedowns(knex)).flatMap((t) => mediaPrefixesOf({ type: t.content_type, path: t.path }));
    sendInternalList(ctx, { prefixes });
  });
}
