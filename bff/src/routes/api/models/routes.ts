import type Router from '@koa/router';
import type { ApiDeps } from '../deps';
import { replayableGet } from '../shared/respond';
import { letterParam, modelNameParam } from './schema';
import { modelDetail, modelList } from './service';

export function modelRoutes(router: Router, deps: ApiDeps): void {
  replayableGet(router, deps.cache, '/models/:letter', letterParam, (letter) => modelList(deps, letter));
  replayableGet(router, deps.cache, '/modelname/:name', modelNameParam, (name) => modelDetail(deps, name));
}
