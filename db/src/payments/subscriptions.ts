import type { Knex } from 'knex';
import { numOrNull } from '../row-values';

export type SubscriptionStatus = 'active' | 'cancelled' | 'expired' | 'revoked';

export interface SubscriptionRow {
  id: number;
  member_id: number;
  kind: 'membership' | 'vod';
  vod_id: number | null;
  provider_subscription_id: string | null;
  status: SubscriptionStatus;
  paid_until: number | null;
  /** The period a renewal adds, as sold (migration 031); null: the configured one. */
  period_days: number | null;
}

function toSubscription(row: Record<string, unknown> | undefined): SubscriptionRow | undefined {
  if (!row) return undefined;
  return {
    id: Number(row.id),
    member_id: Number(row.member_id),
    kind: row.kind as SubscriptionRow['kind'],
    vod_id: numOrNull(row.vod_id),
    provider_subscription_id: row.provider_subscription_id === null ? null : String(row.provider_subscription_id),
    status: row.status as SubscriptionStatus,
    paid_until: numOrNull(row.paid_until),
    period_days: numOrNull(row.period_days),
  };
}

/** What a settled charge bought: an active membership (paid until a time) or one VOD. */
export async function insertSubscription(
  db: Knex,
  s: {
    memberId: number;
    kind: 'membership' | 'vod';
    vodId: number | null;
    providerSubscriptionId: string | null;
    paidUntil: number | null;
    now: number;
    /** The period a renewal adds, as sold; undefined: the configured one. */
    periodDays?: number | null | undefined;
  },
): Promise<number> {
  const [id] = await db('subscriptions').insert({
    member_id: s.memberId,
    kind: s.kind,
    vod_id: s.vodId,
    provider_subscription_id: s.providerSubscriptionId,
    status: 'active',
    paid_until: s.paidUntil,
    period_days: s.periodDays ?? null,
    created_at: s.now,
    updated_at: s.now,
  });
  return Number(id);
}

export async function subscriptionsByProviderId(db: Knex, providerSubscriptionId: string): Promise<SubscriptionRow[]> {
  const rows: Record<string, unknown>[] = await db('subscriptions').where({ provider_subscription_id: providerSubscriptionId });
  return rows.map((r) => toSubscription(r) as SubscriptionRow);
}

export async function updateSubscription(
  db: Knex,
  id: number,
  patch: { status?: SubscriptionStatus; paid_until?: number | null; now: number },
): Promise<void> {
  const { now, ...rest } = patch;
  await db('subscriptions')
    .where({ id })
    .update({ ...rest, updated_at: now });
}

/**
 * Rebilling stopped (the member's Cancel renewal, after the provider confirmed it): `active` →
 * `cancelled`, the paid-through time kept. False when it was not active any more (a Cancellation
 * webhook, a revocation or a second click got there first).
 */
export async function cancelRebilling(db: Knex, id: number, now: number): Promise<boolean> {
  const changed = await db('subscriptions').where({ id, status: 'active' }).update({ status: 'cancelled', updated_at: now });
  return Number(changed) > 0;
}
