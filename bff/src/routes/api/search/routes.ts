import type Router from '@koa/router';
import type { ApiDeps } from '../deps';
import { replayableGet } from '../shared/respond';
import { searchTermParam } from './schema';
import { search } from './service';

export function searchRoutes(router: Router, deps: ApiDeps): void {
  replayableGet(router, deps.cache, '/search/:term', searchTermParam, (term) => search(deps, term));
}
