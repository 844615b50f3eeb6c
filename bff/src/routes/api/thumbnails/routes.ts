import type Router from '@koa/router';
import type { ApiDeps } from '../deps';
import { folderParam, parseParam } from '../shared/params';
import { sendCached } from '../shared/respond';
import { thumbnailList } from './service';

export function thumbnailRoutes(router: Router, deps: ApiDeps): void {
  router
    .get('/thumbnails/:folder', async (ctx) => {
      sendCached(ctx, await thumbnailList(deps, 'photoset', parseParam(folderParam, ctx.params.folder)));
    })
    .get('/freethumbnails/:folder', async (ctx) => {
      sendCached(ctx, await thumbnailList(deps, 'freephotoset', parseParam(folderParam, ctx.params.folder)));
    });
}
