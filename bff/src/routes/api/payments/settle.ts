import type { Knex } from 'knex';
import { recordPaymentOutcome } from '../../../metrics';
import { insertMember, insertSubscription } from '../members/repository';
import { attemptById, closeAttempt, type AttemptRow, type AttemptStatus } from './attempts';

const DAY_MS = 86_400_000;

/**
 * An approved charge: the attempt, the member (for a membership) and the subscription in one
 * transaction. Idempotent: a second settlement (webhook after the direct answer, a replay) does nothing.
 */
export async function settleApproved(
  knex: Knex,
  attemptId: number,
  providerSubscriptionId: string | null,
  now: number,
  membershipDays: number,
): Promise<boolean> {
  const settled = await knex.transaction(async (trx) => {
    const attempt = await attemptById(trx, attemptId);
    if (!attempt || !(await closeAttempt(trx, attemptId, 'approved', { now, providerSubscriptionId }))) return false;
    const memberId = attempt.kind === 'membership' ? await createMember(trx, attempt, now) : attempt.member_id;
    if (memberId === null) throw new Error(`attempt ${attemptId} has no member`);
    await trx('payment_attempts').where({ id: attemptId }).update({ member_id: memberId });
    await insertSubscription(trx, {
      memberId,
      kind: attempt.kind,
      vodId: attempt.vod_id,
      providerSubscriptionId,
      paidUntil: attempt.kind === 'membership' ? now + membershipDays * DAY_MS : null,
      now,
    });
    return true;
  });
  if (settled) recordPaymentOutcome('settle', 'approved');
  return settled;
}

async function createMember(trx: Knex, attempt: AttemptRow, now: number): Promise<number> {
  if (!attempt.password_hash) throw new Error(`attempt ${attempt.id} lost its password hash`);
  return insertMember(trx, { username: attempt.username, passwordHash: attempt.password_hash, email: attempt.email, now });
}

/** Closes an attempt and counts the outcome once (a repeat that changes nothing is not counted). */
async function close(knex: Knex, attemptId: number, status: Exclude<AttemptStatus, 'pending' | 'approved'>, now: number, declineText: string) {
  const closed = await closeAttempt(knex, attemptId, status, { now, declineText: declineText.slice(0, 200) });
  if (closed) recordPaymentOutcome('settle', status);
  return closed;
}

export const settleDeclined = (knex: Knex, attemptId: number, declineText: string, now: number) => close(knex, attemptId, 'declined', now, declineText);

/** The provider refused the request (4xx) or we never reached the charge: nothing was charged. */
export const settleFailed = (knex: Knex, attemptId: number, reason: string, now: number) => close(knex, attemptId, 'failed', now, reason);

/** Timeout or provider error: the card may have been charged; a webhook or an operator decides. */
export const markUnknown = (knex: Knex, attemptId: number, reason: string, now: number) => close(knex, attemptId, 'unknown', now, reason);
