import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { purgeCalls, purgeEventOf, type PurgeTargets } from '@media-site/contracts/purge';
import { claimDuePurges, markPurged, retryPurge, type QueuedPurge } from '@media-site/db/content';
import { doublingDelay } from '@media-site/db/queues';

/**
 * Delivers the purge outbox (db/src/content/purges.ts): each takedown's and restore's purge, once
 * the front door's caches have let go of the file (`minAgeMs`: the media services' takedown poll
 * plus nginx's 5 s thumbnail freshness), then again and again with a growing pause until the
 * webhook and the command both accept it. Rows survive restarts; a worker that dies mid-delivery
 * leaves a lease that expires, and another worker (or the same one restarted) takes the row again.
 * Every outcome is one log line.
 */
export interface PurgeWorkerOptions {
  knex: Knex;
  targets: PurgeTargets;
  logger: Logger;
  /** Look for due purges this often. */
  pollMs: number;
  /** A purge is delivered no sooner than this after its takedown or restore. */
  minAgeMs: number;
  /** A claimed row is another worker's again after this long. */
  leaseMs?: number;
  /** Delay before the next try of a purge refused `attempts` times. */
  backoffMs?: (attempts: number) => number;
  now?: () => number;
}

export interface PurgeWorker {
  /** Stops polling and waits for the delivery in flight. */
  stop(): Promise<void>;
}

/** 1 s, 2 s, 4 s, ... capped at 5 minutes: a CDN API that is down is asked again for as long as it takes. */
export const purgeBackoffMs = (attempts: number): number => doublingDelay(attempts, 1000, 300_000);

export function startPurgeWorker(options: PurgeWorkerOptions): PurgeWorker {
  const { knex, targets, logger, pollMs, minAgeMs } = options;
  const leaseMs = options.leaseMs ?? 120_000;
  const backoff = options.backoffMs ?? purgeBackoffMs;
  const now = options.now ?? Date.now;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let pass: Promise<void> = Promise.resolve();

  async function deliver(row: QueuedPurge): Promise<void> {
    const event = purgeEventOf(row.event, row.prefixes);
    const attempt = row.attempts + 1;
    const failures: string[] = [];
    for (const [target, call] of purgeCalls(targets, event)) {
      try {
        await call();
      } catch (err) {
        failures.push(`${target}: ${(err as Error).message}`);
      }
    }
    const fields = { purge: row.id, event: row.event, prefixes: row.prefixes, attempt, waitedMs: now() - row.createdAt };
    if (failures.length === 0) {
      await markPurged(knex, row.id, now());
      logger.info(fields, 'purge delivered');
      return;
    }
    const error = failures.join('; ');
    const delay = backoff(attempt);
    await retryPurge(knex, row.id, now() + delay, error);
    logger.warn({ ...fields, err: error, retryInMs: delay }, 'purge not accepted; it stays in the outbox and is tried again');
  }

  async function runPass(): Promise<void> {
    try {
      const due = await claimDuePurges(knex, now(), minAgeMs, 20, leaseMs);
      for (const row of due) {
        if (stopped) break;
        await deliver(row);
      }
    } catch (err) {
      logger.warn({ err }, 'purge outbox unreadable; trying again');
    }
  }

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      pass = runPass().finally(schedule);
    }, pollMs);
    timer.unref();
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await pass;
    },
  };
}
