import type Router from '@koa/router';
import { readBody } from '../../../security/body';
import { requireSameOrigin } from '../../../security/origin';
import { callerAddress, currentMember } from '../auth/session';
import type { AccountDeps } from '../members/deps';
import { parseBody } from '../members/parse';
import { frontendTokenBody, processPaymentBody } from './schema';
import { backendHandle, frontendToken, processPayment } from './service';

/** Spec §4 / §7: the server side of the /ccbill form's four steps. */
export function paymentRoutes(router: Router, deps: AccountDeps): void {
  const guard = [requireSameOrigin(deps.settings.allowedOrigins, deps.settings.trustedProxies), readBody()];
  router
    .post('/get_ccbill_token', ...guard, async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await frontendToken(deps, parseBody(frontendTokenBody, ctx), await currentMember(ctx, deps), callerAddress(ctx, deps));
    })
    .post('/get_ccbill_back_token', ...guard, async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await backendHandle(deps, callerAddress(ctx, deps));
    })
    .post('/process_payment', ...guard, async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      const outcome = await processPayment(deps, parseBody(processPaymentBody, ctx), await currentMember(ctx, deps), callerAddress(ctx, deps));
      ctx.status = outcome.httpStatus;
      ctx.body = outcome.body;
    })
    .get('/payment-config', (ctx) => {
      // The provider origin the SPA talks to (and a CSP must allow), without hard-coding a host.
      const s = deps.settings;
      ctx.body = { providerBase: s.providerPublicBase, clientAccnum: s.clientAccnum, clientSubacc: s.clientSubacc, membershipPrice: s.membership.price };
    });
}
