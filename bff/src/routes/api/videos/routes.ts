import type Router from '@koa/router';
import type { ApiDeps } from '../deps';
import { folderParam, pageParam, parseParam } from '../shared/params';
import { sendCached } from '../shared/respond';
import { videoDownload, videoListing } from './service';

export function videoRoutes(router: Router, deps: ApiDeps): void {
  router
    .get('/videos/:page', async (ctx) => {
      sendCached(ctx, await videoListing(deps, 'alpha', parseParam(pageParam, ctx.params.page)));
    })
    .get('/videos-by-date/:page', async (ctx) => {
      sendCached(ctx, await videoListing(deps, 'date', parseParam(pageParam, ctx.params.page)));
    })
    .get('/videos/prename/:folder', async (ctx) => {
      sendCached(ctx, await videoDownload(deps, parseParam(folderParam, ctx.params.folder)));
    });
}
