import type Router from '@koa/router';
import { readBody } from '../../../security/body';
import { requireSameOrigin } from '../../../security/origin';
import { currentMember } from '../auth/session';
import type { AccountDeps } from '../members/deps';
import { parseBody } from '../members/parse';
import { frontendTokenBody, processPaymentBody } from './schema';
import { backendHandle, frontendToken, processPayment } from './service';

/** Spec §4 / §7: the server side of the /ccbill form's four steps. */
export function paymentRoutes(router: Router, deps: AccountDeps): void {
  const guard = [requireSameOrigin(deps.settings.allowedOrigins), readBody()];
  router
    .post('/get_ccbill_token', ...guard, async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await frontendToken(deps, parseBody(frontendTokenBody, ctx), await currentMember(ctx, deps), ctx.ip);
    })
    .post('/get_ccbill_back_token', ...guard, async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await backendHandle(deps, ctx.ip);
    })
    .post('/process_payment', ...guard, async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      const outcome = await processPayment(deps, parseBody(processPaymentBody, ctx), await currentMember(ctx, deps), ctx.ip);
      ctx.status = outcome.httpStatus;
      ctx.body = outcome.body;
    })
    .get('/payment-config', (ctx) => {
      // The provider origin the SPA talks to (and a CSP must allow), without hard-coding a host.
      const s = deps.settings;
      ctx.body = { providerBase: s.providerPublicBase, clientAccnum: s.clientAccnum, clientSubacc: s.clientSubacc, membershipPrice: s.membership.price };
    });
}
