import type Router from '@koa/router';
import type { ApiDeps } from '../deps';
import { pageParam, parseParam } from '../shared/params';
import { replayable } from '../shared/respond';
import { freeSetListing } from './service';

/** The free photo sets (home's "Free photo sets" strip), newest first. */
export function freePhotoRoutes(router: Router, deps: ApiDeps): void {
  router.get(
    '/freephotos/:page',
    replayable(deps.cache, (ctx) => freeSetListing(deps, parseParam(pageParam, ctx.params.page))),
  );
}
