import type Router from '@koa/router';
import type { ApiDeps } from '../deps';
import { folderParam, pageParam, parseParam } from '../shared/params';
import { replayable } from '../shared/respond';
import { photoListing, photoSetDetail } from './service';

export function photoRoutes(router: Router, deps: ApiDeps): void {
  router
    .get(
      '/photos/:page',
      replayable(deps.cache, (ctx) => photoListing(deps, 'alpha', parseParam(pageParam, ctx.params.page))),
    )
    .get(
      '/photos/set/:folder',
      replayable(deps.cache, (ctx) => photoSetDetail(deps, parseParam(folderParam, ctx.params.folder))),
    )
    .get(
      '/photos-by-date/:page',
      replayable(deps.cache, (ctx) => photoListing(deps, 'date', parseParam(pageParam, ctx.params.page))),
    );
}
