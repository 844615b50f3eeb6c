import type { Knex } from 'knex';

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
  },
): Promise<number> {
  const [id] = await db('subscriptions').insert({
    member_id: s.memberId,
    kind: s.kind,
    vod_id: s.vodId,
    provider_subscription_id: s.providerSubscriptionId,
    status: 'active',
    paid_until: s.paidUntil,
    created_at: s.now,
    updated_at: s.now,
  });
  return Number(id);
}
