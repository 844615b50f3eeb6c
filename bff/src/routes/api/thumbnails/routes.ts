import type Router from '@koa/router';
import type { ApiDeps } from '../deps';
import { folderParam } from '../shared/params';
import { replayableGet } from '../shared/respond';
import { thumbnailList } from './service';

export function thumbnailRoutes(router: Router, deps: ApiDeps): void {
  replayableGet(router, deps.cache, '/thumbnails/:folder', folderParam, (folder) => thumbnailList(deps, 'photoset', folder));
  replayableGet(router, deps.cache, '/freethumbnails/:folder', folderParam, (folder) => thumbnailList(deps, 'freephotoset', folder));
}
