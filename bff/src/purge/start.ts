import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { BffConfig } from '../config';
import { startPurgeWorker, type PurgeWorker } from './worker';

/** The durable purge sender, when a purge hook is configured and PURGE_WORKER is on. */
export function startPurgeSender(config: BffConfig, knex: Knex, logger: Logger): PurgeWorker | undefined {
  const targets = { webhookUrl: config.PURGE_WEBHOOK_URL, command: config.PURGE_COMMAND };
  if (!targets.webhookUrl && !targets.command) return undefined;
  if (config.PURGE_WORKER === 'off') {
    logger.info('purge worker off (PURGE_WORKER=off): another bff delivers the purge outbox');
    return undefined;
  }
  logger.info(
    { webhook: Boolean(targets.webhookUrl), command: Boolean(targets.command), delayMs: config.PURGE_DELAY_MS },
    'purge worker started',
  );
  return startPurgeWorker({ knex, targets, logger, pollMs: config.PURGE_POLL_MS, minAgeMs: config.PURGE_DELAY_MS });
}
