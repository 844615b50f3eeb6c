import type Router from '@koa/router';
import type { ApiDeps } from '../deps';
import { folderParam, pageParam, parseParam } from '../shared/params';
import { replayable } from '../shared/respond';
import { vodDetail, vodListing } from './service';

export function vodRoutes(router: Router, deps: ApiDeps): void {
  router
    .get(
      '/vod/:page',
      replayable(deps.cache, (ctx) => vodListing(deps, parseParam(pageParam, ctx.params.page))),
    )
    .get(
      '/vod/prename/:folder',
      replayable(deps.cache, (ctx) => vodDetail(deps, parseParam(folderParam, ctx.params.folder))),
    );
}
