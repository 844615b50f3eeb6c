import type { Logger } from 'pino';
import { purgeCalls, type PurgeEvent, type PurgeTargets } from '@media-site/contracts/purge';

export { purgeEventOf, type PurgeEvent } from '@media-site/contracts/purge';

/**
 * Tells an external cache (a CDN in front of the front door) that a takedown or a restore took
 * effect here, through the purge hook (contracts/src/purge.ts). Called after the service's own list
 * changed, so a cache that refetches at once already gets the 410 (or the file). Each attempt is
 * retried after 1, 2, 4, ... s (PURGE_ATTEMPTS in all); every outcome is one log line. Every media
 * replica calls it for the change it sees: purges are idempotent, so N replicas make N calls for one
 * takedown. This is the fast, best-effort call; the bff's purge outbox delivers each change once
 * more, durably, after the front door's caches have let go (bff/src/purge/worker.ts).
 */
export interface PurgeConfig extends PurgeTargets {
  attempts: number;
  /** First retry delay; doubles each time. */
  retryMs?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms).unref());

export class Purger {
  constructor(
    private readonly config: PurgeConfig,
    private readonly logger: Logger,
  ) {}

  get enabled(): boolean {
    return Boolean(this.config.webhookUrl || this.config.command);
  }

  /** Resolves when every configured target succeeded or ran out of attempts; never throws. */
  async purge(event: PurgeEvent): Promise<void> {
    await Promise.all(purgeCalls(this.config, event).map(([target, call]) => this.withRetries(target, event, call)));
  }

  private async withRetries(target: string, event: PurgeEvent, call: () => Promise<void>): Promise<void> {
    const attempts = Math.max(1, this.config.attempts);
    let delay = this.config.retryMs ?? 1000;
    for (let attempt = 1; attempt <= attempts; attempt += 1) {
      try {
        await call();
        this.logger.info({ purge: target, event: event.event, prefixes: event.prefixes, attempt }, `purge ${target} done`);
        return;
      } catch (err) {
        const last = attempt === attempts;
        this.logger[last ? 'error' : 'warn'](
          { purge: target, event: event.event, prefixes: event.prefixes, attempt, err: (err as Error).message },
          last
            ? `purge ${target} failed after ${attempts} attempts; the external cache may still hold these URLs`
            : `purge ${target} failed; retrying`,
        );
        if (!last) {
          await sleep(delay);
          delay *= 2;
        }
      }
    }
  }
}
