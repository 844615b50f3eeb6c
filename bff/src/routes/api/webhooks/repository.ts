import type { Knex } from 'knex';
import { isUniqueViolation } from '@media-site/db';

/**
 * Stores the event; undefined when this transactionId + eventType is already stored (a replay, or
 * the same delivery racing in on another bff). The insert comes first and the unique key decides:
 * a read-then-insert let two deliveries both pass the read, and on SQLite a transaction that reads
 * before it writes cannot wait for another writer (SQLITE_BUSY).
 */
export async function storeEvent(
  db: Knex,
  e: { transactionId: string; eventType: string; subscriptionId: string | null; payload: string; now: number },
): Promise<number | undefined> {
  try {
    const [id] = await db('webhook_events').insert({
      transaction_id: e.transactionId,
      event_type: e.eventType,
      subscription_id: e.subscriptionId,
      payload: e.payload,
      received_at: e.now,
    });
    return Number(id);
  } catch (err) {
    if (isUniqueViolation(err)) return undefined;
    // knex puts the statement and its values in the message: keep the event's fields out of the log.
    const code = (err as { code?: unknown }).code;
    throw Object.assign(new Error(`storing a webhook event failed (${String(code ?? 'no code')})`), { code });
  }
}

export async function recordOutcome(db: Knex, id: number, outcome: string): Promise<void> {
  await db('webhook_events').where({ id }).update({ outcome });
}
