import type Router from '@koa/router';
import type { ApiDeps } from '../deps';
import { parseParam } from '../shared/params';
import { replayable } from '../shared/respond';
import { searchTermParam } from './schema';
import { search } from './service';

export function searchRoutes(router: Router, deps: ApiDeps): void {
  router.get(
    '/search/:term',
    replayable(deps.cache, (ctx) => search(deps, parseParam(searchTermParam, ctx.params.term))),
  );
}
