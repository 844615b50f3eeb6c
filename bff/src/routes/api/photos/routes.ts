import type Router from '@koa/router';
import type { ApiDeps } from '../deps';
import { pageParam, parseParam } from '../shared/params';
import { sendCached } from '../shared/respond';
import { photoListing } from './service';

export function photoRoutes(router: Router, deps: ApiDeps): void {
  router
    .get('/photos/:page', async (ctx) => {
      sendCached(ctx, await photoListing(deps, 'alpha', parseParam(pageParam, ctx.params.page)));
    })
    .get('/photos-by-date/:page', async (ctx) => {
      sendCached(ctx, await photoListing(deps, 'date', parseParam(pageParam, ctx.params.page)));
    });
}
