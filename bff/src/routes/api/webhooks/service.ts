import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { ForbiddenError } from '../../../errors';
import type { AccountDeps } from '../members/deps';
import { revokeMember, subscriptionsByProviderId, updateSubscription } from '../members/repository';
import { attemptById, type AttemptRow } from '../payments/attempts';
import { settleApproved, settleDeclined } from '../payments/settle';
import { recordOutcome, storeEvent } from './repository';
import type { WebhookFields } from './schema';

const DAY_MS = 86_400_000;
const REVOKING = new Set(['Chargeback', 'Refund', 'Return', 'Void']);
// Never stored, whatever the provider sends along (last digits, card type, account hashes).
const CARD_FIELD = /card|cvv|cc_?num|paymentAccount|last4|bin/i;

function text(value: unknown): string | undefined {
  return value === undefined || value === null || value === '' ? undefined : String(value);
}

function storable(fields: WebhookFields): string {
  return JSON.stringify(Object.fromEntries(Object.entries(fields).filter(([k]) => !CARD_FIELD.test(k))));
}

/** Our attempt id travels as pass-through `attempt` (arriving as `X-attempt`); else match the subscription id. */
async function attemptOf(db: Knex, fields: WebhookFields): Promise<AttemptRow | undefined> {
  const id = Number(text(fields['X-attempt']) ?? text(fields.attempt));
  if (Number.isInteger(id) && id > 0) return attemptById(db, id);
  const sub = text(fields.subscriptionId);
  if (!sub) return undefined;
  const row = await db('payment_attempts').where({ provider_subscription_id: sub }).first('id');
  return row ? attemptById(db, Number(row.id)) : undefined;
}

async function apply(deps: AccountDeps, trx: Knex, eventType: string, fields: WebhookFields, now: number): Promise<string> {
  if (eventType === 'NewSaleSuccess' || eventType === 'UpSaleSuccess' || eventType === 'NewSaleFailure' || eventType === 'UpSaleFailure') {
    const attempt = await attemptOf(trx, fields);
    if (!attempt) return 'no matching attempt';
    const settled = eventType.endsWith('Success')
      ? await settleApproved(trx, attempt.id, text(fields.subscriptionId) ?? null, now, deps.settings.membership.periodDays)
      : await settleDeclined(trx, attempt.id, String(fields.failureReason ?? 'declined (webhook)').slice(0, 200), now);
    return settled ? `attempt ${attempt.id} settled` : `attempt ${attempt.id} already settled`;
  }
  const sub = text(fields.subscriptionId);
  const subscriptions = sub ? await subscriptionsByProviderId(trx, sub) : [];
  if (subscriptions.length === 0) return 'no matching subscription';
  for (const s of subscriptions) {
    if (eventType === 'RenewalSuccess') {
      const next = Date.parse(text(fields.nextRenewalDate)?.slice(0, 10) ?? '');
      const paidUntil = Number.isFinite(next) ? next + DAY_MS : Math.max(s.paid_until ?? now, now) + deps.settings.membership.periodDays * DAY_MS;
      await updateSubscription(trx, s.id, { status: 'active', paid_until: Math.max(paidUntil, s.paid_until ?? 0), now });
    } else if (eventType === 'Cancellation') {
      // Paid-through time stays: access lasts until then.
      await updateSubscription(trx, s.id, { status: 'cancelled', now });
    } else if (eventType === 'Expiration') {
      await updateSubscription(trx, s.id, { status: 'expired', paid_until: Math.min(s.paid_until ?? now, now), now });
    } else if (REVOKING.has(eventType)) {
      await updateSubscription(trx, s.id, { status: 'revoked', paid_until: now, now });
      await revokeMember(trx, s.member_id, now);
    } else {
      return 'ignored';
    }
  }
  return `${eventType} applied to ${subscriptions.length} subscription(s)`;
}

/**
 * Stores the event (de-duplicated on transactionId + eventType) and applies it in the same
 * transaction, so a replay changes nothing and a failure leaves nothing half-done for the retry.
 */
export async function receiveWebhook(
  deps: AccountDeps,
  query: { clientAccnum: number; eventType: string },
  fields: WebhookFields,
): Promise<'stored' | 'duplicate'> {
  const bodyAccnum = text(fields.clientAccnum);
  if (query.clientAccnum !== deps.settings.clientAccnum || (bodyAccnum !== undefined && bodyAccnum !== String(deps.settings.clientAccnum))) {
    throw new ForbiddenError('unknown client account');
  }
  const payload = storable(fields);
  const transactionId = text(fields.transactionId) ?? `sha256:${createHash('sha256').update(`${query.eventType}\n${payload}`).digest('hex').slice(0, 64)}`;
  const now = deps.now();
  return deps.knex.transaction(async (trx) => {
    const id = await storeEvent(trx, { transactionId, eventType: query.eventType, subscriptionId: text(fields.subscriptionId) ?? null, payload, now });
    if (id === undefined) return 'duplicate';
    const outcome = await apply(deps, trx, query.eventType, fields, now);
    await recordOutcome(trx, id, outcome.slice(0, 40));
    deps.logger.info({ eventType: query.eventType, webhook: id, outcome }, 'webhook stored');
    return 'stored';
  });
}
