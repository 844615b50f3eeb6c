import type { Knex } from 'knex';
import { z } from 'zod';
import { mailSiteFromEnv } from '@media-site/db/mail';
import { providerConfigShape } from '../../../provider/config';
import { attemptById, closeAttempt, openAttempts, type AttemptRow } from './attempts';
import { settleApproved, settleDeclined, type SettleOptions } from './settle';

/**
 * Settling charges in doubt (timeouts, provider errors) when no webhook did: the operator checks
 * the provider's admin for the transaction, then approves or declines the attempt here.
 */
const membershipEnv = z.object({
  MEMBERSHIP_PERIOD_DAYS: providerConfigShape.MEMBERSHIP_PERIOD_DAYS,
  MEMBERSHIP_REBILLS: providerConfigShape.MEMBERSHIP_REBILLS,
});

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

export async function approve(
  knex: Knex,
  id: number,
  subscriptionId: string | null,
  options: SettleOptions,
  now = Date.now(),
): Promise<string> {
  const attempt = await attemptById(knex, id);
  if (!attempt) return `attempt ${id} does not exist`;
  return (await settleApproved(knex, id, subscriptionId, now, options))
    ? `attempt ${id} approved: access granted to ${attempt.username}`
    : `attempt ${id} was already ${attempt.status}`;
}

export async function decline(knex: Knex, id: number, now = Date.now()): Promise<string> {
  const attempt = await attemptById(knex, id);
  if (!attempt) return `attempt ${id} does not exist`;
  return (await settleDeclined(knex, id, 'declined by reconciliation', now))
    ? `attempt ${id} declined`
    : `attempt ${id} was already ${attempt.status}`;
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
