import type Router from '@koa/router';
import type { ApiDeps } from '../deps';
import { folderParam, pageParam } from '../shared/params';
import { replayableGet } from '../shared/respond';
import { vodDetail, vodListing } from './service';

export function vodRoutes(router: Router, deps: ApiDeps): void {
  replayableGet(router, deps.cache, '/vod/:page', pageParam, (page) => vodListing(deps, page));
  replayableGet(router, deps.cache, '/vod/prename/:folder', folderParam, (folder) => vodDetail(deps, folder));
}
