import type Router from '@koa/router';
import type { ApiDeps } from '../deps';
import { parseParam } from '../shared/params';
import { replayable } from '../shared/respond';
import { letterParam, modelNameParam } from './schema';
import { modelDetail, modelList } from './service';

export function modelRoutes(router: Router, deps: ApiDeps): void {
  router
    .get(
      '/models/:letter',
      replayable(deps.cache, (ctx) => modelList(deps, parseParam(letterParam, ctx.params.letter))),
    )
    .get(
      '/modelname/:name',
      replayable(deps.cache, (ctx) => modelDetail(deps, parseParam(modelNameParam, ctx.params.name))),
    );
}
