import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { ForbiddenError } from '../../../errors';
import { enqueueMail, type RenderedMail } from '@media-site/db/mail';
import { accessWithdrawnMail, cancellationMail, renewalFailedMail, renewalReceiptMail } from '@media-site/db/mail/templates';
import type { AccountDeps } from '../../../account/deps';
import { memberById, revokeMember } from '../../../account/repository';
import {
  attemptById,
  attemptBySubscriptionId,
  settleApproved,
  settleDeclined,
  subscriptionsByProviderId,
  updateSubscription,
  type AttemptRow,
  type SubscriptionRow,
} from '@media-site/db/payments';
import { countSettlement, settleOptionsOf } from '../payments/settlement';
import { nudgeMail } from '../../../mail/worker';
import { countWebhook } from '../../../payment-metrics';
import { recordOutcome, storeEvent } from './repository';
import type { WebhookRecord } from './schema';

const DAY_MS = 86_400_000;
/** Money went back to the card: the whole member loses media access until an operator's `member enable`. */
const REVOKING = new Set(['Chargeback', 'Refund', 'Return', 'Void']);

/** Our attempt id travels as pass-through `attempt` (arriving as `X-attempt`); else match the subscription id. */
async function attemptOf(db: Knex, event: WebhookRecord): Promise<AttemptRow | undefined> {
  if (event.attempt) return attemptById(db, Number(event.attempt));
  if (!event.subscriptionId) return undefined;
  return attemptBySubscriptionId(db, event.subscriptionId);
}

async function settle(deps: AccountDeps, trx: Knex, eventType: string, event: WebhookRecord, now: number): Promise<string> {
  const attempt = await attemptOf(trx, event);
  if (!attempt) return 'no matching attempt';
  const settled = eventType.endsWith('Success')
    ? await settleApproved(trx, attempt.id, event.subscriptionId ?? null, now, settleOptionsOf(deps.settings))
    : await settleDeclined(trx, attempt.id, event.failureReason ?? 'declined (webhook)', now, countSettlement);
  return settled ? `attempt ${attempt.id} settled` : `attempt ${attempt.id} already settled`;
}

/** One lifecycle event on one subscription; false when the event does not change it. */
async function applyTo(
  deps: AccountDeps,
  trx: Knex,
  eventType: string,
  event: WebhookRecord,
  s: SubscriptionRow,
  now: number,
): Promise<boolean> {
  if (REVOKING.has(eventType)) {
    await updateSubscription(trx, s.id, { status: 'revoked', paid_until: now, now });
    await revokeMember(trx, s.member_id, now);
    return true;
  }
  // A charged-back purchase stays withdrawn: no renewal, cancellation or expiry brings it back.
  if (s.status === 'revoked') return false;
  if (eventType === 'RenewalSuccess') {
    const next = Date.parse(event.nextRenewalDate?.slice(0, 10) ?? '');
    const paidUntil = Number.isFinite(next)
      ? next + DAY_MS
      : Math.max(s.paid_until ?? now, now) + (s.period_days ?? deps.settings.membership.periodDays) * DAY_MS;
    await updateSubscription(trx, s.id, { status: 'active', paid_until: Math.max(paidUntil, s.paid_until ?? 0), now });
  } else if (eventType === 'Cancellation') {
    // Paid-through time stays: access lasts until then.
    await updateSubscription(trx, s.id, { status: 'cancelled', now });
  } else if (eventType === 'Expiration') {
    await updateSubscription(trx, s.id, { status: 'expired', paid_until: Math.min(s.paid_until ?? now, now), now });
  } else {
    return false;
  }
  return true;
}

const AMOUNT = /^\d{1,9}(?:\.\d{1,2})?$/;
const dateOf = (value: string | undefined): number | null => {
  const ms = Date.parse(value?.slice(0, 10) ?? '');
  return Number.isFinite(ms) ? ms : null;
};

/** The member's notice for this event, from the subscription as it was before (`before`) and is now (`after`). */
async function noticeFor(
  deps: AccountDeps,
  trx: Knex,
  eventType: string,
  event: WebhookRecord,
  before: SubscriptionRow,
  after: SubscriptionRow,
  username: string,
  now: number,
): Promise<{ template: string; mail: RenderedMail } | undefined> {
  const site = deps.settings.site;
  // A purchase already withdrawn hears nothing more of it (a refund after a chargeback, a late renewal).
  if (before.status === 'revoked') return undefined;
  if (REVOKING.has(eventType)) return { template: 'access-withdrawn', mail: accessWithdrawnMail(site, { username, eventType }) };
  if (before.kind !== 'membership') return undefined;
  if (eventType === 'RenewalSuccess') {
    const attempt = await attemptBySubscriptionId(trx, before.provider_subscription_id);
    const billed = event.billedAmount ?? event.amount;
    const mail = renewalReceiptMail(site, {
      username,
      amount: billed !== undefined && AMOUNT.test(billed) ? billed : null,
      currencyCode: attempt ? attempt.currency_code : deps.settings.currencyCode,
      renewedAt: now,
      paidUntil: after.paid_until,
      nextRenewal: dateOf(event.nextRenewalDate),
      subscriptionId: String(before.provider_subscription_id),
    });
    return { template: 'renewal-receipt', mail };
  }
  // Nothing changes on our side: access lasts to the paid-through date unless a renewal succeeds.
  if (eventType === 'RenewalFailure')
    return { template: 'renewal-failed', mail: renewalFailedMail(site, { username, paidUntil: after.paid_until }) };
  if (eventType === 'Cancellation' && before.status === 'active')
    return { template: 'cancellation', mail: cancellationMail(site, { username, paidUntil: after.paid_until }) };
  return undefined;
}

/**
 * One notice per stored event (its key names the event, so nothing is sent twice), to the
 * member's current address, in the event's transaction.
 */
async function enqueueNotice(
  deps: AccountDeps,
  trx: Knex,
  webhookId: number,
  eventType: string,
  event: WebhookRecord,
  before: SubscriptionRow[],
  now: number,
): Promise<void> {
  const after = await subscriptionsByProviderId(trx, String(event.subscriptionId));
  for (const s of before) {
    const member = await memberById(trx, s.member_id);
    const to = String(member?.email ?? '').trim();
    const current = after.find((a) => a.id === s.id) ?? s;
    const notice = member && to !== '' ? await noticeFor(deps, trx, eventType, event, s, current, String(member.username), now) : undefined;
    if (!notice) continue;
    await enqueueMail(trx, { key: `webhook:${webhookId}`, to, template: notice.template, ...notice.mail }, now);
    return;
  }
}

async function apply(
  deps: AccountDeps,
  trx: Knex,
  webhookId: number,
  eventType: string,
  event: WebhookRecord,
  now: number,
): Promise<string> {
  if (/^(?:NewSale|UpSale)(?:Success|Failure)$/.test(eventType)) return settle(deps, trx, eventType, event, now);
  const subscriptions = event.subscriptionId ? await subscriptionsByProviderId(trx, event.subscriptionId) : [];
  if (subscriptions.length === 0) return 'no matching subscription';
  let changed = 0;
  for (const s of subscriptions) if (await applyTo(deps, trx, eventType, event, s, now)) changed += 1;
  await enqueueNotice(deps, trx, webhookId, eventType, event, subscriptions, now);
  return changed === 0 ? 'ignored' : `${eventType} applied to ${changed} subscription(s)`;
}

/**
 * Stores the event (de-duplicated on transactionId + eventType) and applies it in the same
 * transaction, so a replay changes nothing and a failure leaves nothing half-done for the retry.
 * Only the allow-listed fields (schema.ts) are stored; the body as sent never is.
 */
export async function receiveWebhook(
  deps: AccountDeps,
  query: { clientAccnum: number; eventType: string },
  event: WebhookRecord,
): Promise<'stored' | 'duplicate'> {
  if (
    query.clientAccnum !== deps.settings.clientAccnum ||
    (event.clientAccnum !== undefined && event.clientAccnum !== String(deps.settings.clientAccnum))
  ) {
    throw new ForbiddenError('unknown client account');
  }
  const payload = JSON.stringify(event);
  // No transactionId (or one too long for the column): the fields themselves identify a replay.
  const given = event.transactionId;
  const transactionId =
    given !== undefined && given.length <= 80
      ? given
      : `sha256:${createHash('sha256').update(`${query.eventType}\n${payload}`).digest('hex')}`;
  const now = deps.now();
  const stored = await deps.knex.transaction(async (trx) => {
    const id = await storeEvent(trx, {
      transactionId,
      eventType: query.eventType,
      subscriptionId: event.subscriptionId?.slice(0, 32) ?? null,
      payload,
      now,
    });
    if (id === undefined) return 'duplicate';
    const outcome = await apply(deps, trx, id, query.eventType, event, now);
    await recordOutcome(trx, id, outcome.slice(0, 40));
    deps.logger.info({ eventType: query.eventType, webhook: id, outcome }, 'webhook stored');
    return 'stored' as const;
  });
  if (stored === 'stored') {
    countWebhook(query.eventType, event.billedAmount ?? event.amount, deps.settings.currencyCode);
    nudgeMail();
  }
  return stored;
}
