import type Router from '@koa/router';
import { currentMember } from '../auth/session';
import type { AccountDeps } from '../../../account/deps';
import { folderParam, parseParam } from '../shared/params';
import { playableTypeParam } from './schema';
import { playbackView } from './service';

export function playbackRoutes(router: Router, deps: AccountDeps): void {
  router.get('/playback/:type/:folder', async (ctx) => {
    const type = parseParam(playableTypeParam, ctx.params.type);
    const folder = parseParam(folderParam, ctx.params.folder);
    // Per session (access, position) and changing while encoding: no cache tier may keep it.
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await playbackView(deps, await currentMember(ctx, deps), type, folder);
  });
}
