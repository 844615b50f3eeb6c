import type Router from '@koa/router';
import type { Context } from 'koa';
import { UnauthenticatedError } from '../../../errors';
import { nudgeMail } from '../../../mail/worker';
import { addressBlock } from '../../../security/client-address';
import { clearCookies, currentMember, issueCookies } from '../auth/session';
import type { AccountDeps } from '../../../account/deps';
import { memberById } from '../../../account/repository';
import { parseBody } from '../shared/parse';
import { formGuards } from '../shared/guards';
import { changePasswordBody } from './schema';
import { confirmEmailChange, emailChangeBody, emailConfirmBody, requestEmailChange } from './email';
import { accountView, changePassword, signOutEverywhere } from './service';
import { cancelRenewal } from './cancel';
import { switchReleaseMail } from './release-mail';
import { readBody } from '../../../security/body';
import { requireSameOrigin } from '../../../security/origin';
import type { EmailConfirmed, MessageAnswer } from '@media-site/contracts/member-api';

async function signedIn(ctx: Context, deps: AccountDeps) {
  const member = await currentMember(ctx, deps);
  if (!member) throw new UnauthenticatedError('sign in first');
  return member;
}

/** /account's calls: the member's own account, by their session. */
export function accountRoutes(router: Router, deps: AccountDeps): void {
  const guard = formGuards(deps);
  router
    .get('/account', async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await accountView(deps, await signedIn(ctx, deps));
    })
    // Guesses of the current password: counted per address before the body is read, so a refused one costs nothing more.
    .post('/account/password', ...formGuards(deps, { what: 'pwchange:ip', perMinute: deps.settings.loginPerMinute }), async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      const member = await signedIn(ctx, deps);
      const session = await changePassword(deps, member, parseBody(changePasswordBody, ctx), addressBlock(ctx.ip));
      // The "password changed" notice committed with it: sent now rather than at the worker's next poll.
      nudgeMail();
      // Read again: the media token must carry the valid-from time the change just set.
      await issueCookies(ctx, deps, (await memberById(deps.knex, member.id)) ?? member, session);
      ctx.status = 204;
    })
    // No body: the session and the site's own origin (formGuards) are the request.
    .post('/account/cancel-renewal', ...guard, async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await cancelRenewal(deps, await signedIn(ctx, deps));
      // The confirmation committed with it: sent now rather than at the worker's next poll.
      nudgeMail();
    })
    // The current password again, so counted per address before the body like the password change.
    .post('/account/email', ...formGuards(deps, { what: 'emailchange:ip', perMinute: deps.settings.loginPerMinute }), async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      const member = await signedIn(ctx, deps);
      const input = parseBody(emailChangeBody, ctx);
      await requestEmailChange(deps, member, input, addressBlock(ctx.ip));
      ctx.status = 202;
      ctx.body = {
        message: `We sent a confirmation link to ${input.email}. Your address changes when you open it.`,
      } satisfies MessageAnswer;
    })
    // The link is the proof: no session needed (it may be opened on another device).
    .post(
      '/account/email/confirm',
      ...formGuards(deps, { what: 'emailconfirm:ip', perMinute: deps.settings.loginPerMinute }),
      async (ctx) => {
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { email: await confirmEmailChange(deps, parseBody(emailConfirmBody, ctx)) } satisfies EmailConfirmed;
      },
    )
    // No body: the method says on (PUT) or off (DELETE).
    .put('/account/release-mail', requireSameOrigin(deps.settings.allowedOrigins), readBody(0), async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await switchReleaseMail(deps, await signedIn(ctx, deps), true);
    })
    .delete('/account/release-mail', requireSameOrigin(deps.settings.allowedOrigins), readBody(0), async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await switchReleaseMail(deps, await signedIn(ctx, deps), false);
    })
    .post('/account/sign-out-everywhere', ...guard, async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      await signOutEverywhere(deps, await signedIn(ctx, deps));
      clearCookies(ctx);
      ctx.status = 204;
    });
}
