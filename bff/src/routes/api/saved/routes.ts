import type Router from '@koa/router';
import { readBody } from '../../../security/body';
import { requireSameOrigin } from '../../../security/origin';
import { currentMember } from '../auth/session';
import type { AccountDeps } from '../../../account/deps';
import { parseSavedTarget } from './schema';
import { removeItem, saveItem, savedList, savedReleases } from './service';

/** "My list": per member, never cached by any tier (no-store). A save carries no body. */
export function savedRoutes(router: Router, deps: AccountDeps): void {
  const guard = [requireSameOrigin(deps.settings.allowedOrigins), readBody(0)];
  router
    .get('/saved', async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await savedList(deps, await currentMember(ctx, deps));
    })
    .get('/saved/releases', async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await savedReleases(deps, await currentMember(ctx, deps));
    })
    .put('/saved/:type/:key', ...guard, async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      const [type, key] = parseSavedTarget(ctx.params);
      ctx.body = await saveItem(deps, await currentMember(ctx, deps), type, key);
    })
    .delete('/saved/:type/:key', ...guard, async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      const [type, key] = parseSavedTarget(ctx.params);
      await removeItem(deps, await currentMember(ctx, deps), type, key);
      ctx.status = 204;
    });
}
