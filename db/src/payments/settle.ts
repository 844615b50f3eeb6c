import type { Knex } from 'knex';
import { enqueueMail, type MailSite } from '../mail';
import { vodReceiptMail, welcomeReceiptMail } from '../mail/templates';
import { insertMember } from '../members/accounts';
import { amountCents, countStat } from '../stats/daily';
import { attemptById, closeAttempt, type AttemptRow, type AttemptStatus } from './attempts';
import { insertSubscription } from './subscriptions';

const DAY_MS = 86_400_000;

/**
 * What the process does once an attempt is settled (after its transaction, or inside the caller's):
 * the bff counts the outcome and wakes its mail worker for the receipt; the operator CLI does neither.
 */
export type OnSettled = (status: Exclude<AttemptStatus, 'pending'>, facts: SettledFacts) => void;

/** What a settlement tells its counter: an approval's sale, or a close's reason (a decline's code comes first). */
export type SettledFacts = { kind: AttemptRow['kind']; amount: string; currencyCode: number } | { reason: string };

export interface SettleOptions {
  /** The membership's terms: its period, and rebills (0: it does not renew). */
  membership: { periodDays: number; rebills: number };
  /** What the receipt calls the site and where its links point. */
  site: MailSite;
  onSettled?: OnSettled;
}

/**
 * An approved charge: the attempt, the member (for a membership), the subscription and the receipt
 * mail in one transaction; then a VOD's sale in the daily stats. Idempotent: a second settlement (webhook after the direct answer, a
 * replay) does nothing, and the receipt's key names the attempt.
 */
export async function settleApproved(
  knex: Knex,
  attemptId: number,
  providerSubscriptionId: string | null,
  now: number,
  options: SettleOptions,
): Promise<boolean> {
  const settled = await knex.transaction(async (trx) => {
    const attempt = await attemptById(trx, attemptId);
    if (!attempt || !(await closeAttempt(trx, attemptId, 'approved', { now, providerSubscriptionId }))) return undefined;
    const memberId = attempt.kind === 'membership' ? await createMember(trx, attempt, now) : attempt.member_id;
    if (memberId === null) throw new Error(`attempt ${attemptId} has no member`);
    await trx('payment_attempts').where({ id: attemptId }).update({ member_id: memberId });
    // The first period as sold (a trial's); attempts recorded before migration 031 have none.
    const paidUntil = attempt.kind === 'membership' ? now + (attempt.period_days ?? options.membership.periodDays) * DAY_MS : null;
    await insertSubscription(trx, {
      memberId,
      kind: attempt.kind,
      vodId: attempt.vod_id,
      providerSubscriptionId,
      paidUntil,
      now,
      periodDays: attempt.kind === 'membership' ? attempt.recurring_period_days : null,
    });
    await enqueueReceipt(
      trx,
      options,
      { ...attempt, member_id: memberId, provider_subscription_id: providerSubscriptionId },
      paidUntil,
      now,
    );
    return attempt;
  });
  // What sells (stats/daily.ts): the sale and its revenue on the day, once the sale stands (a
  // rolled-back settlement counts nothing). Best effort: a failed count is one sale less in the
  // console's Stats, never a failed settlement.
  if (settled?.kind === 'vod' && settled.vod_id !== null) {
    await countStat(knex, { type: 'vod', id: settled.vod_id }, 'sales', now, amountCents(settled.amount)).catch(() => undefined);
  }
  // Inside a webhook's transaction this comes before the commit: the worker's next poll sends it.
  if (settled) options.onSettled?.('approved', { kind: settled.kind, amount: settled.amount, currencyCode: settled.currency_code });
  return settled !== undefined;
}

/**
 * The welcome with the first receipt, or a VOD's receipt, to the member's current address; the
 * address, or null when the member has none. `again`: a copy asked for later (its own outbox key,
 * the payment's own time).
 */
export async function enqueueReceipt(
  trx: Knex,
  options: SettleOptions,
  attempt: AttemptRow,
  paidUntil: number | null,
  now: number,
  again?: { paidAt: number },
): Promise<string | null> {
  const member = await trx('members').where({ id: attempt.member_id }).first('username', 'email');
  const to = String(member?.email ?? '').trim();
  // Members added by an operator may have no address; the charge still settles.
  if (!member || to === '') return null;
  const base = attempt.kind === 'membership' ? `welcome:attempt:${attempt.id}` : `receipt:attempt:${attempt.id}`;
  // A copy's key counts the copies before it: each resend is its own mail, never a duplicate key.
  const copies = again
    ? Number((await trx('mail_outbox').where('mail_key', 'like', `${base}:copy:%`).count({ n: '*' }).first())?.n ?? 0)
    : 0;
  const suffix = again ? `:copy:${copies + 1}` : '';
  const facts = {
    username: String(member.username),
    amount: attempt.amount,
    currencyCode: attempt.currency_code,
    paidAt: again?.paidAt ?? now,
    attemptId: attempt.id,
    subscriptionId: attempt.provider_subscription_id,
  };
  if (attempt.kind === 'membership') {
    const trial =
      attempt.recurring_price !== null &&
      attempt.period_days !== null &&
      attempt.recurring_period_days !== null &&
      attempt.recurring_price !== attempt.amount
        ? { recurringPrice: attempt.recurring_price, recurringPeriodDays: attempt.recurring_period_days }
        : null;
    const mail = welcomeReceiptMail(options.site, {
      ...facts,
      periodDays: attempt.period_days ?? options.membership.periodDays,
      trial,
      renews: options.membership.rebills > 0,
      paidUntil: paidUntil ?? now,
    });
    await enqueueMail(trx, { key: `welcome:attempt:${attempt.id}${suffix}`, to, template: 'welcome-receipt', ...mail }, now);
    return to;
  }
  const vod = await trx('vods').where({ id: attempt.vod_id }).first('updatename');
  const mail = vodReceiptMail(options.site, { ...facts, title: String(vod?.updatename ?? 'VOD') });
  await enqueueMail(trx, { key: `receipt:attempt:${attempt.id}${suffix}`, to, template: 'vod-receipt', ...mail }, now);
  return to;
}

async function createMember(trx: Knex, attempt: AttemptRow, now: number): Promise<number> {
  if (!attempt.password_hash) throw new Error(`attempt ${attempt.id} lost its password hash`);
  return insertMember(trx, { username: attempt.username, passwordHash: attempt.password_hash, email: attempt.email, now });
}

/** Closes an attempt and counts the outcome once (a repeat that changes nothing is not counted). */
async function close(
  knex: Knex,
  attemptId: number,
  status: Exclude<AttemptStatus, 'pending' | 'approved'>,
  now: number,
  declineText: string,
  onSettled: OnSettled | undefined,
) {
  const closed = await closeAttempt(knex, attemptId, status, { now, declineText: declineText.slice(0, 200) });
  if (closed) onSettled?.(status, { reason: declineText });
  return closed;
}

export const settleDeclined = (knex: Knex, attemptId: number, declineText: string, now: number, onSettled?: OnSettled) =>
  close(knex, attemptId, 'declined', now, declineText, onSettled);

/** The provider refused the request (4xx) or we never reached the charge: nothing was charged. */
export const settleFailed = (knex: Knex, attemptId: number, reason: string, now: number, onSettled?: OnSettled) =>
  close(knex, attemptId, 'failed', now, reason, onSettled);

/** Timeout or provider error: the card may have been charged; a webhook or an operator decides. */
export const markUnknown = (knex: Knex, attemptId: number, reason: string, now: number, onSettled?: OnSettled) =>
  close(knex, attemptId, 'unknown', now, reason, onSettled);
