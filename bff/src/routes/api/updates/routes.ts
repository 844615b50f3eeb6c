import type Router from '@koa/router';
import type { ApiDeps } from '../deps';
import { pageParam } from '../shared/params';
import { replayableGet } from '../shared/respond';
import { updatesFeed } from './service';

export function updateRoutes(router: Router, deps: ApiDeps): void {
  replayableGet(router, deps.cache, '/updates/:page', pageParam, (page) => updatesFeed(deps, page));
}
