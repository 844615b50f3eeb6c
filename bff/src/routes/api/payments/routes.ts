import type Router from '@koa/router';
import { currentOffer } from '@media-site/db/payments';
import type { Context } from 'koa';
import { addressBlock } from '../../../security/client-address';
import { createSession, deleteSession } from '@media-site/db/members';
import { currentMember, issueCookies, rememberDevice, sessionCookieValue, signInClient } from '../auth/session';
import type { AccountDeps } from '../../../account/deps';
import { parseBody, parseQuery } from '../shared/parse';
import { formGuards } from '../shared/guards';
import { memberById, type MemberRow } from '../../../account/repository';
import { backendHandleBody, frontendTokenBody, processPaymentBody, usernameQuery } from './schema';
import { backendHandle, frontendToken, processPayment, usernameAvailable } from './service';
import { PAYMENT_START_COOKIE, START_TTL_MS } from './repository';
import type { PaymentConfig } from '@media-site/contracts/member-api';

// Step 1's nonce: HttpOnly, only on /api, and SameSite=Strict so no other site's page can make
// this browser send it.
const startNonce = (ctx: Context) => ctx.cookies.get(PAYMENT_START_COOKIE, { signed: false });
function setStartNonce(ctx: Context, nonce: string): void {
  ctx.cookies.set(PAYMENT_START_COOKIE, nonce, {
    path: '/api',
    sameSite: 'strict',
    httpOnly: true,
    secure: ctx.secure,
    signed: false,
    overwrite: true,
    maxAge: START_TTL_MS,
  });
}

/**
 * The approved chain leaves this browser signed in: a new member gets a session (and the media
 * cookie); a member who bought a VOD keeps their session and gets a media cookie that carries it.
 */
async function signInFromPayment(ctx: Context, deps: AccountDeps, signedIn: MemberRow | undefined, memberId: number): Promise<void> {
  if (signedIn?.id === memberId) {
    await issueCookies(ctx, deps, signedIn);
    return;
  }
  const member = await memberById(deps.knex, memberId);
  if (!member || member.disabled_at !== null) return;
  // A session of another account on this browser ends: the cookie is about to be replaced.
  await deleteSession(deps.knex, sessionCookieValue(ctx));
  const session = await createSession(deps.knex, member.id, deps.now(), deps.settings.sessionTtlHours * 3_600_000);
  await issueCookies(ctx, deps, member, session);
  rememberDevice(ctx, deps, member, signInClient(ctx, deps).device);
}

/** Spec §4 / §7: the server side of the /ccbill form's four steps. */
export function paymentRoutes(router: Router, deps: AccountDeps): void {
  // The per-address limit counts before the body is read or validated: a refused call costs nothing
  // more. Repeats of a known payment token count too; they still get the first outcome.
  const guard = formGuards(deps, { what: 'pay:ip', perMinute: deps.settings.paymentPerMinute });
  router
    .post('/get_ccbill_token', ...guard, async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      const { nonce, answer } = await frontendToken(deps, parseBody(frontendTokenBody, ctx), await currentMember(ctx, deps));
      setStartNonce(ctx, nonce);
      ctx.body = answer;
    })
    .post('/get_ccbill_back_token', ...guard, async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await backendHandle(deps, startNonce(ctx), parseBody(backendHandleBody, ctx).paymentToken);
    })
    .post('/process_payment', ...guard, async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      const member = await currentMember(ctx, deps);
      const { outcome, signInMemberId } = await processPayment(deps, parseBody(processPaymentBody, ctx), member, startNonce(ctx));
      if (signInMemberId !== undefined) await signInFromPayment(ctx, deps, member, signInMemberId);
      ctx.status = outcome.httpStatus;
      ctx.body = outcome.body;
    })
    .get('/username-available', async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await usernameAvailable(deps, parseQuery(usernameQuery, ctx).u, addressBlock(ctx.ip));
    })
    .get('/payment-config', async (ctx) => {
      // The provider origin the SPA talks to (and a CSP must allow), without hard-coding a host,
      // and the terms a new member is charged on, which the join page states before payment.
      const s = deps.settings;
      const { id, price, periodDays, trial } = await currentOffer(deps.knex, s.membership);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = {
        providerBase: s.providerPublicBase,
        clientAccnum: s.clientAccnum,
        clientSubacc: s.clientSubacc,
        membershipPrice: price,
        offer: { id, price, periodDays, trial, renews: s.membership.rebills > 0 },
      } satisfies PaymentConfig;
    });
}
