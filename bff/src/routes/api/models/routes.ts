import type Router from '@koa/router';
import type { ApiDeps } from '../deps';
import { parseParam } from '../shared/params';
import { sendCached } from '../shared/respond';
import { letterParam, modelNameParam } from './schema';
import { modelDetail, modelList } from './service';

export function modelRoutes(router: Router, deps: ApiDeps): void {
  router
    .get('/models/:letter', async (ctx) => {
      sendCached(ctx, await modelList(deps, parseParam(letterParam, ctx.params.letter)));
    })
    .get('/modelname/:name', async (ctx) => {
      sendCached(ctx, await modelDetail(deps, parseParam(modelNameParam, ctx.params.name)));
    });
}
