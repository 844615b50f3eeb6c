import type Router from '@koa/router';
import type { ApiDeps } from '../deps';
import { pageParam, parseParam } from '../shared/params';
import { replayable } from '../shared/respond';
import { photoListing } from './service';

export function photoRoutes(router: Router, deps: ApiDeps): void {
  router
    .get('/photos/:page', replayable(deps.cache, (ctx) => photoListing(deps, 'alpha', parseParam(pageParam, ctx.params.page))))
    .get('/photos-by-date/:page', replayable(deps.cache, (ctx) => photoListing(deps, 'date', parseParam(pageParam, ctx.params.page))));
}
