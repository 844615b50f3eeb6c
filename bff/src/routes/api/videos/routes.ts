import type Router from '@koa/router';
import type { ApiDeps } from '../deps';
import { folderParam, pageParam, parseParam } from '../shared/params';
import { replayable } from '../shared/respond';
import { videoDownload, videoListing } from './service';

export function videoRoutes(router: Router, deps: ApiDeps): void {
  router
    .get(
      '/videos/:page',
      replayable(deps.cache, (ctx) => videoListing(deps, 'alpha', parseParam(pageParam, ctx.params.page))),
    )
    .get(
      '/videos-by-date/:page',
      replayable(deps.cache, (ctx) => videoListing(deps, 'date', parseParam(pageParam, ctx.params.page))),
    )
    .get(
      '/videos/prename/:folder',
      replayable(deps.cache, (ctx) => videoDownload(deps, parseParam(folderParam, ctx.params.folder))),
    );
}
