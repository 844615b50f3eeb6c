import type Router from '@koa/router';
import type { ApiDeps } from '../deps';
import { folderParam, pageParam } from '../shared/params';
import { replayableGet } from '../shared/respond';
import { videoDownload, videoListing } from './service';

export function videoRoutes(router: Router, deps: ApiDeps): void {
  replayableGet(router, deps.cache, '/videos/:page', pageParam, (page) => videoListing(deps, 'alpha', page));
  replayableGet(router, deps.cache, '/videos-by-date/:page', pageParam, (page) => videoListing(deps, 'date', page));
  replayableGet(router, deps.cache, '/videos/prename/:folder', folderParam, (folder) => videoDownload(deps, folder));
}
