import type Router from '@koa/router';
import type { ApiDeps } from '../deps';
import { parseParam } from '../shared/params';
import { sendCached } from '../shared/respond';
import { searchTermParam } from './schema';
import { search } from './service';

export function searchRoutes(router: Router, deps: ApiDeps): void {
  router.get('/search/:term', async (ctx) => {
    sendCached(ctx, await search(deps, parseParam(searchTermParam, ctx.params.term)));
  });
}
