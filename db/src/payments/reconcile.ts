import type { Knex } from 'knex';
import { z } from 'zod';
import { appendAudit } from '../admin/audit';
import { mailSiteFromEnv } from '../mail';
import { RuleError } from '../rule-error';
import { attemptById, closeAttempt, openAttempts, type AttemptRow } from './attempts';
import { enqueueReceipt, settleApproved, settleDeclined, type SettleOptions } from './settle';
import { membershipTermsShape } from './terms';

/** A refused reconciliation: 404 / 409 / 400 through the error middleware, exit 1 or 2 from the CLI. */
export class ReconcileError extends RuleError {}

/**
 * Settling charges in doubt (timeouts, provider errors) when no webhook did: the operator checks
 * the provider's admin for the transaction, then approves or declines the attempt here.
 */
const membershipEnv = z.object(membershipTermsShape);

/**
 * What approving needs, from the environment alone: the operator command line (`ops payments
 * reconcile`) runs without the bff's configuration and its secrets. Same defaults and bounds.
 */
export function settleOptionsFromEnv(env: Record<string, string | undefined>): SettleOptions {
  const terms = membershipEnv.parse(env);
  return { membership: { periodDays: terms.MEMBERSHIP_PERIOD_DAYS, rebills: terms.MEMBERSHIP_REBILLS }, site: mailSiteFromEnv(env) };
}

export async function listOpen(knex: Knex, olderThanMs: number, now = Date.now()): Promise<AttemptRow[]> {
  return openAttempts(knex, now - olderThanMs);
}

/** The operator CLI's `reconcile approve`: reconcileAttempt at any age, audited as the CLI's user. */
export async function approve(
  knex: Knex,
  id: number,
  subscriptionId: string | null,
  options: SettleOptions,
  now = Date.now(),
  by: { actor: string } = { actor: 'cli' },
): Promise<string> {
  return settleOne(knex, id, 'approve', { subscriptionId, options, now, by });
}

/** The operator CLI's `reconcile decline`. */
export async function decline(knex: Knex, id: number, now = Date.now(), by: { actor: string } = { actor: 'cli' }): Promise<string> {
  return settleOne(knex, id, 'decline', { subscriptionId: null, options: NO_SETTLE_OPTIONS, now, by });
}

// Declining never reads the membership terms or the site (no member, no receipt).
const NO_SETTLE_OPTIONS: SettleOptions = { membership: { periodDays: 0, rebills: 0 }, site: { name: '', url: '' } };

async function settleOne(
  knex: Knex,
  id: number,
  action: 'approve' | 'decline',
  r: { subscriptionId: string | null; options: SettleOptions; now: number; by: { actor: string } },
): Promise<string> {
  const attempt = await attemptById(knex, id);
  if (!attempt) return `attempt ${id} does not exist`;
  try {
    const done = await reconcileAttempt(knex, id, action, { ...r, stuckAfterMs: 0 });
    return action === 'approve' ? `attempt ${id} approved: access granted to ${done.username}` : `attempt ${id} declined`;
  } catch (err) {
    if (err instanceof ReconcileError && err.kind === 'conflict')
      return `attempt ${id} was already ${(await attemptById(knex, id))?.status}`;
    throw err;
  }
}

/** Attempts still open after `olderThanMs` with no webhook: the provider did not charge them. */
export async function expireOpen(knex: Knex, olderThanMs: number, now = Date.now()): Promise<number> {
  let count = 0;
  for (const attempt of await openAttempts(knex, now - olderThanMs)) {
    if (await closeAttempt(knex, attempt.id, 'failed', { now, declineText: 'no provider confirmation (expired by reconciliation)' }))
      count += 1;
  }
  return count;
}

export type ReconcileAction = 'approve' | 'decline' | 'expire';

/**
 * One stuck attempt settled by an operator (the console's Members screen; `ops reconcile approve|
 * decline` do the same without the age check): approve (the provider's admin shows the charge),
 * decline (it shows none) or expire (no answer and no webhook: mark it failed). Refuses an attempt
 * that is not open or is younger than `stuckAfterMs`: a charge may still be answered or confirmed by
 * its webhook. The settlement and its audit row share one transaction.
 */
export async function reconcileAttempt(
  knex: Knex,
  id: number,
  action: ReconcileAction,
  r: {
    subscriptionId: string | null;
    options: SettleOptions;
    stuckAfterMs: number;
    now: number;
    by: { actor: string; address?: string };
  },
): Promise<{ username: string; before: string; after: string }> {
  return knex.transaction(async (trx) => {
    const attempt = await attemptById(trx, id);
    if (!attempt) throw new ReconcileError('not_found', `there is no payment attempt ${id}`);
    if (attempt.status !== 'pending' && attempt.status !== 'unknown')
      throw new ReconcileError('conflict', `attempt ${id} is already ${attempt.status}: only a stuck attempt can be reconciled`);
    if (r.stuckAfterMs > 0 && attempt.created_at > r.now - r.stuckAfterMs)
      throw new ReconcileError(
        'conflict',
        `attempt ${id} is only ${Math.max(0, Math.round((r.now - attempt.created_at) / 60_000))} minute(s) old: wait until it is ${Math.round(r.stuckAfterMs / 60_000)} minutes old, a webhook may still settle it`,
      );
    const settled =
      action === 'approve'
        ? await settleApproved(trx, id, r.subscriptionId, r.now, r.options)
        : action === 'decline'
          ? await settleDeclined(trx, id, 'declined by reconciliation', r.now, r.options.onSettled)
          : await closeAttempt(trx, id, 'failed', { now: r.now, declineText: 'no provider confirmation (expired by reconciliation)' });
    if (!settled) throw new ReconcileError('conflict', `attempt ${id} was settled meanwhile`);
    const after = action === 'approve' ? 'approved' : action === 'decline' ? 'declined' : 'failed';
    await appendAudit(trx, {
      ...r.by,
      action: `payment.reconcile_${action}`,
      target: `attempt ${id} (${attempt.username})`,
      before: { status: attempt.status },
      after: { status: after, ...(r.subscriptionId ? { subscriptionId: r.subscriptionId } : {}) },
      at: r.now,
    });
    return { username: attempt.username, before: attempt.status, after };
  });
}

/**
 * Support's "Resend receipt": a copy of an approved payment's receipt (the welcome for a
 * membership, with the paid-through time its subscription has now) to the member's current
 * address, audited. Refused for a payment that was not approved or a member with no address.
 */
export async function resendReceipt(
  knex: Knex,
  id: number,
  r: { options: SettleOptions; now: number; by: { actor: string; address?: string } },
): Promise<{ username: string; to: string }> {
  return knex.transaction(async (trx) => {
    const attempt = await attemptById(trx, id);
    if (!attempt) throw new ReconcileError('not_found', `there is no payment attempt ${id}`);
    if (attempt.status !== 'approved' || attempt.member_id === null)
      throw new ReconcileError('conflict', `attempt ${id} is ${attempt.status}: only an approved payment has a receipt`);
    const subscription = attempt.provider_subscription_id
      ? await trx('subscriptions')
          .where({ member_id: attempt.member_id, provider_subscription_id: attempt.provider_subscription_id })
          .first('paid_until')
      : undefined;
    const paidUntil = subscription?.paid_until == null ? null : Number(subscription.paid_until);
    const to = await enqueueReceipt(trx, r.options, attempt, paidUntil, r.now, { paidAt: attempt.created_at });
    if (to === null) throw new ReconcileError('conflict', `${attempt.username} has no e-mail address to send a receipt to`);
    await appendAudit(trx, {
      ...r.by,
      action: 'payment.resend_receipt',
      target: `attempt ${id} (${attempt.username})`,
      before: null,
      after: { to },
      at: r.now,
    });
    return { username: attempt.username, to };
  });
}
