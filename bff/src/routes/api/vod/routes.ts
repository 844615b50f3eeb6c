import type Router from '@koa/router';
import type { ApiDeps } from '../deps';
import { folderParam, pageParam, parseParam } from '../shared/params';
import { sendCached } from '../shared/respond';
import { vodDetail, vodListing } from './service';

export function vodRoutes(router: Router, deps: ApiDeps): void {
  router
    .get('/vod/:page', async (ctx) => {
      sendCached(ctx, await vodListing(deps, parseParam(pageParam, ctx.params.page)));
    })
    .get('/vod/prename/:folder', async (ctx) => {
      sendCached(ctx, await vodDetail(deps, parseParam(folderParam, ctx.params.folder)));
    });
}
