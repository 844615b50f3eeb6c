import type Router from '@koa/router';
import type { ApiDeps } from '../deps';
import { folderParam, pageParam } from '../shared/params';
import { replayableGet } from '../shared/respond';
import { photoListing, photoSetDetail } from './service';

export function photoRoutes(router: Router, deps: ApiDeps): void {
  replayableGet(router, deps.cache, '/photos/:page', pageParam, (page) => photoListing(deps, 'alpha', page));
  replayableGet(router, deps.cache, '/photos/set/:folder', folderParam, (folder) => photoSetDetail(deps, folder));
  replayableGet(router, deps.cache, '/photos-by-date/:page', pageParam, (page) => photoListing(deps, 'date', page));
}
