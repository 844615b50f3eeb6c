import type { Knex } from 'knex';
import { pino, type Logger } from 'pino';
import type { LogDestination } from './access-log';

export interface LogOutput {
  logger: Logger;
  /** Where the logger writes; the access log hands its batches to the same stream. */
  destination: LogDestination;
}

/**
 * JSON lines on stdout, buffered up to 4 KB and flushed at least every second: one write per
 * request line cost ~10 µs of CPU per cached answer. main.ts flushes on shutdown; a crash can lose
 * the last second of lines.
 */
export function createLogOutput(level: string, dest: number | string = 1): LogOutput {
  const destination = pino.destination({ dest, minLength: 4096, sync: false });
  const logger = pino({ level, base: { service: 'bff' } }, destination);
  setInterval(() => logger.flush(), 1000).unref();
  return { logger, destination };
}

/**
 * knex's own messages (a refused connection is warned once per attempt) as one JSON line each
 * through the logger: knex prints them with console.log, stack included, over several lines.
 */
export function knexLog(logger: Logger): NonNullable<Knex.Config['log']> {
  const to = (level: 'warn' | 'error' | 'debug') => (message: unknown) => {
    if (typeof message === 'string') logger[level]({ component: 'knex' }, message.split('\n', 1)[0]);
    else logger[level]({ component: 'knex', detail: message }, 'knex');
  };
  return {
    warn: to('warn'),
    error: to('error'),
    debug: to('debug'),
    deprecate: (method: string, alternative: string) => logger.warn({ component: 'knex' }, `${method} is deprecated, use ${alternative}`),
  };
}
