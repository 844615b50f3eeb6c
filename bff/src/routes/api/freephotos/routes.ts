import type Router from '@koa/router';
import type { ApiDeps } from '../deps';
import { pageParam } from '../shared/params';
import { replayableGet } from '../shared/respond';
import { freeSetListing } from './service';

/** The free photo sets (home's "Free photo sets" strip), newest first. */
export function freePhotoRoutes(router: Router, deps: ApiDeps): void {
  replayableGet(router, deps.cache, '/freephotos/:page', pageParam, (page) => freeSetListing(deps, page));
}
