import type Router from '@koa/router';
import { UnauthenticatedError } from '../../../errors';
import { addressBlock } from '../../../security/client-address';
import type { AccountDeps } from '../../../account/deps';
import { parseBody, parseQuery } from '../shared/parse';
import { formGuards } from '../shared/guards';
import { downloadLink, loginChallenge, memberView, signIn, signOut } from './service';
import { downloadLinkQuery, loginBody } from './schema';
import { clearCookies, currentMember, issueCookies, rememberDevice, sessionCookieValue, signInClient } from './session';

export function authRoutes(router: Router, deps: AccountDeps): void {
  // Per route, not router.use(): the /api router is shared with the catalog routes.
  const guard = formGuards(deps);
  // Every sign-in POST counts per address before its body is read: the sign-in limits'
  // one per-address budget (the per-username budgets follow in limits.ts).
  const signInGuard = formGuards(deps, { what: 'login:ip', perMinute: deps.settings.loginPerMinute });
  router
    .post('/login', ...signInGuard, async (ctx) => {
      const client = signInClient(ctx, deps);
      const { member, session } = await signIn(deps, parseBody(loginBody, ctx), client);
      await issueCookies(ctx, deps, member, session);
      rememberDevice(ctx, deps, member, client.device);
      ctx.body = await memberView(deps, member);
    })
    .get('/login-challenge', async (ctx) => {
      // A proof-of-work challenge for a sign-in past its username's budget (security/altcha.ts).
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await loginChallenge(deps, addressBlock(ctx.ip));
    })
    .post('/logout', ...guard, async (ctx) => {
      await signOut(deps, sessionCookieValue(ctx));
      clearCookies(ctx);
      ctx.status = 204;
    })
    .get('/me', async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      const member = await currentMember(ctx, deps);
      if (!member) {
        clearCookies(ctx);
        throw new UnauthenticatedError();
      }
      // Every call re-issues the short-lived media token from current entitlements: the refresh
      // that makes a revocation reach the media service.
      await issueCookies(ctx, deps, member);
      ctx.body = await memberView(deps, member);
    })
    .get('/download-link', async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      const member = await currentMember(ctx, deps);
      if (!member) throw new UnauthenticatedError();
      ctx.body = await downloadLink(deps, member, parseQuery(downloadLinkQuery, ctx).path);
    });
}
