import type Router from '@koa/router';
import type { ApiDeps } from '../deps';
import { pageParam, parseParam } from '../shared/params';
import { replayable } from '../shared/respond';
import { updatesFeed } from './service';

export function updateRoutes(router: Router, deps: ApiDeps): void {
  router.get(
    '/updates/:page',
    replayable(deps.cache, (ctx) => updatesFeed(deps, parseParam(pageParam, ctx.params.page))),
  );
}
