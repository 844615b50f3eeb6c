import type Router from '@koa/router';
import type { AttemptReconciled, MemberDetail, MembershipExtended } from '@media-site/contracts/admin';
import type { Context } from 'koa';
import { z } from 'zod';
import { EXTEND_DAYS_MAX, EXTEND_DAYS_MIN, EXTEND_REASON_MAX, extendMembership, STUCK_AFTER_MS, viewMember } from '@media-site/db/members';
import type { AccountDeps } from '../../../account/deps';
import { readBody } from '../../../security/body';
import { enforceRateLimit } from '../../../security/rate-limit';
import { parseBody } from '../shared/parse';
import { parseParam } from '../shared/params';
import { reconcileAttempt, resendReceipt } from '@media-site/db/payments';
import type { MessageAnswer } from '@media-site/contracts/member-api';
import { nudgeMail } from '../../../mail/worker';
import { settleOptionsOf } from '../payments/settlement';
import { reader, requireAdmin, signedInAdmin } from './session';
import { usernameParam } from './changes';
import { CANCEL_TRIES, stopRebilling, type CancelWording } from '../account/cancel';
import { memberByUsername } from '../../../account/repository';
import { NotFoundError } from '../../../errors';

/** Support's Cancel renewal: what a refusal says in the console. */
const TO_SUPPORT: CancelWording = {
  nothing: 'This membership does not renew: there is nothing to cancel.',
  offline: "Renewal cannot be cancelled from here (CCBILL_DATALINK_* is not set): cancel it in the provider's admin.",
  unknown: (reason) => `Not cancelled yet: ${reason}. Try again in a few minutes; the member's page shows it once it went through.`,
  refused: (meaning, code) => `The card processor did not cancel it (${meaning}, code ${code}): cancel it in the provider's admin.`,
};

// Support's members and payments: one member's detail, extending a membership, and
// reconciling one stuck payment attempt. The same db and bff services as the operator CLI
// (`member extend`, `reconcile approve|decline|expire`), each change audited in its transaction.

type Guard = (ctx: Context, next: () => Promise<unknown>) => Promise<void>;

const DAYS = `a whole number of days from ${EXTEND_DAYS_MIN} to ${EXTEND_DAYS_MAX}`;

export const extendBody = z.strictObject({
  days: z.number({ error: DAYS }).int(DAYS).min(EXTEND_DAYS_MIN, DAYS).max(EXTEND_DAYS_MAX, DAYS),
  reason: z
    .string({ error: 'give a reason' })
    .max(EXTEND_REASON_MAX, { error: `longer than ${EXTEND_REASON_MAX} characters`, abort: true })
    .trim()
    .min(1, 'give a reason'),
});

export const reconcileBody = z.strictObject({
  action: z.enum(['approve', 'decline', 'expire'], { error: 'action must be approve, decline or expire' }),
  // The provider's subscription id as its admin shows it: digits, kept as text (18 digits exceed exact integers).
  subscriptionId: z
    .string()
    .max(32, { error: 'longer than 32 characters', abort: true })
    .regex(/^\d+$/, "digits only, as the provider's admin shows it")
    .optional(),
});

/** Copies of one receipt an hour (support's Resend receipt). */
export const RESENDS_PER_HOUR = 3;

/** A payment attempt's number in the path. */
export const attemptId = z
  .string()
  .regex(/^\d{1,9}$/, 'not a payment attempt id')
  .transform(Number);

const attemptParam = (ctx: Context): number => parseParam(attemptId, ctx.params.id);

const actorOf = (ctx: Context) => ({ actor: signedInAdmin(ctx).name, address: ctx.ip });

/** GET /api/admin/members/:username, POST .../extend, POST /api/admin/payments/:id/reconcile. */
export function adminMemberRoutes(router: Router, deps: AccountDeps, origin: Guard): void {
  router
    .get('/admin/members/:username', origin, requireAdmin(deps, 'members'), async (ctx) => {
      ctx.body = (await viewMember(deps.knex, usernameParam(ctx), reader(ctx, deps))) satisfies MemberDetail;
    })
    .post('/admin/members/:username/extend', origin, requireAdmin(deps, 'members'), readBody(), async (ctx) => {
      const username = usernameParam(ctx);
      const { days, reason } = parseBody(extendBody, ctx);
      const done = await extendMembership(deps.knex, username, { days, reason, now: deps.now() }, actorOf(ctx));
      ctx.body = { username, ...done } satisfies MembershipExtended;
    })
    // The member in the path is the request (a body, if any, is read within the usual bound and ignored).
    .post('/admin/members/:username/cancel-renewal', origin, requireAdmin(deps, 'members'), readBody(), async (ctx) => {
      const username = usernameParam(ctx);
      const member = await memberByUsername(deps.knex, username);
      if (!member) throw new NotFoundError(`no member ${username}`);
      await enforceRateLimit(
        deps.limiter,
        `admin-cancel-renewal:${member.id}`,
        CANCEL_TRIES,
        900,
        'too many tries for this member: wait 15 minutes',
      );
      await stopRebilling(deps, member, TO_SUPPORT, actorOf(ctx));
      nudgeMail();
      ctx.body = {
        message: `${member.username}'s membership will not renew; access runs to the paid-until day. The member was sent a confirmation.`,
      } satisfies MessageAnswer;
    })
    // The attempt in the path is the request (a body, if any, is read within the usual bound and ignored).
    .post('/admin/payments/:id/resend-receipt', origin, requireAdmin(deps, 'payments'), readBody(), async (ctx) => {
      const id = attemptParam(ctx);
      // A member's inbox is not for flooding: a few copies of one receipt an hour.
      await enforceRateLimit(
        deps.limiter,
        `resend-receipt:${id}`,
        RESENDS_PER_HOUR,
        3600,
        'this receipt was sent again recently: wait an hour',
      );
      const sent = await resendReceipt(deps.knex, id, { options: settleOptionsOf(deps.settings), now: deps.now(), by: actorOf(ctx) });
      // Sent now rather than at the worker's next poll.
      nudgeMail();
      ctx.body = { message: `A copy of the receipt for attempt ${id} is on its way to ${sent.to}.` } satisfies MessageAnswer;
    })
    .post('/admin/payments/:id/reconcile', origin, requireAdmin(deps, 'payments'), readBody(), async (ctx) => {
      const id = attemptParam(ctx);
      const { action, subscriptionId } = parseBody(reconcileBody, ctx);
      const { settings } = deps;
      ctx.body = (await reconcileAttempt(deps.knex, id, action, {
        subscriptionId: subscriptionId ?? null,
        options: settleOptionsOf(settings),
        stuckAfterMs: STUCK_AFTER_MS,
        now: deps.now(),
        by: actorOf(ctx),
      })) satisfies AttemptReconciled;
    });
}
