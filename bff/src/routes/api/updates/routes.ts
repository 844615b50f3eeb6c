import type Router from '@koa/router';
import type { ApiDeps } from '../deps';
import { pageParam, parseParam } from '../shared/params';
import { sendCached } from '../shared/respond';
import { updatesFeed } from './service';

export function updateRoutes(router: Router, deps: ApiDeps): void {
  router.get('/updates/:page', async (ctx) => {
    sendCached(ctx, await updatesFeed(deps, parseParam(pageParam, ctx.params.page)));
  });
}
