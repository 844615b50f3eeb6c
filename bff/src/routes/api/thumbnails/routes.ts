import type Router from '@koa/router';
import type { ApiDeps } from '../deps';
import { folderParam, parseParam } from '../shared/params';
import { replayable } from '../shared/respond';
import { thumbnailList } from './service';

export function thumbnailRoutes(router: Router, deps: ApiDeps): void {
  router
    .get(
      '/thumbnails/:folder',
      replayable(deps.cache, (ctx) => thumbnailList(deps, 'photoset', parseParam(folderParam, ctx.params.folder))),
    )
    .get(
      '/freethumbnails/:folder',
      replayable(deps.cache, (ctx) => thumbnailList(deps, 'freephotoset', parseParam(folderParam, ctx.params.folder))),
    );
}
