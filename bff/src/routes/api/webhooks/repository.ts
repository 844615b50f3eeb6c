import type { Knex } from 'knex';

/** Stores the event; false when this transactionId + eventType was already stored (a replay). */
export async function storeEvent(
  db: Knex,
  e: { transactionId: string; eventType: string; subscriptionId: string | null; payload: string; now: number },
): Promise<number | undefined> {
  const seen = await db('webhook_events').where({ transaction_id: e.transactionId, event_type: e.eventType }).first('id');
  if (seen) return undefined;
  const [id] = await db('webhook_events').insert({
    transaction_id: e.transactionId,
    event_type: e.eventType,
    subscription_id: e.subscriptionId,
    payload: e.payload,
    received_at: e.now,
  });
  return Number(id);
}

export async function recordOutcome(db: Knex, id: number, outcome: string): Promise<void> {
  await db('webhook_events').where({ id }).update({ outcome });
}
