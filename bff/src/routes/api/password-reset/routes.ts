import type Router from '@koa/router';
import { addressBlock } from '../../../security/client-address';
import { RESET_DEVICE_COOKIE } from '../../../security/device-cookie';
import { memberView } from '../auth/service';
import { issueCookies, rememberDevice, signInClient } from '../auth/session';
import type { AccountDeps } from '../../../account/deps';
import { parseBody } from '../shared/parse';
import { formGuards } from '../shared/guards';
import { passwordResetBody, passwordResetConfirmBody } from './schema';
import { confirmPasswordReset, requestPasswordReset, RESET_ANSWER } from './service';

/** "Forgot password?": ask for a link by username or e-mail, then set a new password with it (signed in after). */
export function passwordResetRoutes(router: Router, deps: AccountDeps): void {
  router
    // Counted per address before the body is read, like sign-in; the hourly budgets in limits.ts.
    .post('/password-reset', ...formGuards(deps, { what: 'pwreset:ip', perMinute: deps.settings.loginPerMinute }), async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      await requestPasswordReset(deps, parseBody(passwordResetBody, ctx), signInClient(ctx, deps, RESET_DEVICE_COOKIE));
      ctx.status = 202;
      ctx.body = RESET_ANSWER;
    })
    .post(
      '/password-reset/confirm',
      ...formGuards(deps, { what: 'pwreset:confirm:ip', perMinute: deps.settings.loginPerMinute }),
      async (ctx) => {
        ctx.set('Cache-Control', 'no-store');
        const { member, session } = await confirmPasswordReset(deps, parseBody(passwordResetConfirmBody, ctx), addressBlock(ctx.ip));
        // Signed in as sign-in does it: session and media cookies, and this browser a known device.
        await issueCookies(ctx, deps, member, session);
        rememberDevice(ctx, deps, member, signInClient(ctx, deps, RESET_DEVICE_COOKIE).device);
        ctx.body = await memberView(deps, member);
      },
    );
}
