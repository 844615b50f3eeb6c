import type Router from '@koa/router';
import type { SiteStatus } from '@media-site/contracts/site-status';
import type { AccountDeps } from '../../../account/deps';
import { readMaintenance } from '../../../maintenance';

/** GET /api/site: maintenance mode (the banner), read at most every couple of seconds per bff. */
export function siteRoutes(router: Router, deps: AccountDeps): void {
  router.get('/site', async (ctx) => {
    const on = await readMaintenance(deps.knex);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { maintenance: on && { since: on.since, message: on.message } } satisfies SiteStatus;
  });
}
