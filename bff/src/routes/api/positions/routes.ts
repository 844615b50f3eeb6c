import type Router from '@koa/router';
import { readBody } from '../../../security/body';
import { requireSameOrigin } from '../../../security/origin';
import { currentMember } from '../auth/session';
import type { AccountDeps } from '../../../account/deps';
import { parseBody } from '../shared/parse';
import { playableTypeParam } from '../playback/schema';
import { folderParam, parseParam } from '../shared/params';
import { POSITION_BODY_LIMIT, positionBody } from './schema';
import { continueWatching, forgetPosition, readPosition, writePosition } from './service';

/** "Continue watching": per member, never cached by any tier (no-store; not a replayable route). */
export function positionRoutes(router: Router, deps: AccountDeps): void {
  const guard = [requireSameOrigin(deps.settings.allowedOrigins), readBody(POSITION_BODY_LIMIT)];
  const target = (params: Record<string, string | undefined>) =>
    [parseParam(playableTypeParam, params.type), parseParam(folderParam, params.folder)] as const;
  router
    .get('/positions', async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await continueWatching(deps, await currentMember(ctx, deps));
    })
    .get('/positions/:type/:folder', async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await readPosition(deps, await currentMember(ctx, deps), ...target(ctx.params));
    })
    .put('/positions/:type/:folder', ...guard, async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      const [type, folder] = target(ctx.params);
      const { seconds } = parseBody(positionBody, ctx);
      ctx.body = await writePosition(deps, await currentMember(ctx, deps), type, folder, seconds);
    })
    .delete('/positions/:type/:folder', ...guard, async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      await forgetPosition(deps, await currentMember(ctx, deps), ...target(ctx.params));
      ctx.status = 204;
    });
}
