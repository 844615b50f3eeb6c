import type { Knex } from 'knex';

// The purge outbox (migration 013): one row per takedown or restore, written in its transaction;
// delivered by a worker under a lease (bff/src/purge/worker.ts) until the CDN accepts it.

export type PurgeAction = 'takedown' | 'restore';

export interface QueuedPurge {
  id: number;
  event: PurgeAction;
  prefixes: string[];
  createdAt: number;
  attempts: number;
}

const ERROR_MAX = 300;

/** Records the purge a takedown or restore needs; call inside its transaction. */
export async function enqueuePurge(trx: Knex | Knex.Transaction, event: PurgeAction, prefixes: string[], now: number): Promise<void> {
  await trx('purge_outbox').insert({ event, prefixes: JSON.stringify(prefixes), created_at: now, attempts: 0, next_attempt_at: now });
}

/**
 * Claims up to `limit` purges that are due at `now` and at least `minAgeMs` old (the front door's
 * caches let go of a taken-down file only after that), oldest first, each until `now + leaseMs`.
 * Each row is taken by a conditional update, so two workers never deliver the same row at once.
 */
export async function claimDuePurges(db: Knex, now: number, minAgeMs: number, limit: number, leaseMs: number): Promise<QueuedPurge[]> {
  const rows = (await db('purge_outbox')
    .whereNull('done_at')
    .andWhere('next_attempt_at', '<=', now)
    .andWhere('created_at', '<=', now - minAgeMs)
    .andWhere((q) => void q.whereNull('claimed_until').orWhere('claimed_until', '<', now))
    .orderBy('id')
    .limit(limit)
    .select('id', 'event', 'prefixes', 'created_at', 'attempts', 'claimed_until')) as Array<{
    id: number;
    event: PurgeAction;
    prefixes: string;
    created_at: number | string;
    attempts: number;
    claimed_until: number | string | null;
  }>;
  const claimed: QueuedPurge[] = [];
  for (const row of rows) {
    const won = await db('purge_outbox')
      .where({ id: row.id })
      .whereNull('done_at')
      .andWhere((q) => void (row.claimed_until === null ? q.whereNull('claimed_until') : q.where('claimed_until', row.claimed_until)))
      .update({ claimed_until: now + leaseMs });
    if (won === 1)
      claimed.push({
        id: Number(row.id),
        event: row.event,
        prefixes: JSON.parse(row.prefixes) as string[],
        createdAt: Number(row.created_at),
        attempts: row.attempts,
      });
  }
  return claimed;
}

export async function markPurged(db: Knex, id: number, now: number): Promise<void> {
  await db('purge_outbox')
    .where({ id })
    .update({ done_at: now, claimed_until: null, attempts: db.raw('attempts + 1'), last_error: null });
}

export async function retryPurge(db: Knex, id: number, nextAttemptAt: number, error: string): Promise<void> {
  await db('purge_outbox')
    .where({ id })
    .whereNull('done_at')
    .update({
      next_attempt_at: nextAttemptAt,
      claimed_until: null,
      attempts: db.raw('attempts + 1'),
      last_error: error.slice(0, ERROR_MAX),
    });
}

/** Milliseconds the oldest purge not yet delivered has waited (0: none). */
export async function oldestPendingPurgeAgeMs(db: Knex, now: number): Promise<number> {
  const row = (await db('purge_outbox').whereNull('done_at').min({ oldest: 'created_at' }).first()) as
    { oldest: number | string | null } | undefined;
  return row?.oldest == null ? 0 : Math.max(0, now - Number(row.oldest));
}
