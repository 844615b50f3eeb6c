import { pino, type Logger } from 'pino';

/**
 * JSON lines on stdout, buffered up to 4 KB and flushed at least every second: one write per
 * request line cost ~10 µs of CPU per cached answer. main.ts flushes on shutdown; a crash can lose
 * the last second of lines.
 */
export function createLogger(level: string, dest: number | string = 1): Logger {
  const logger = pino({ level, base: { service: 'bff' } }, pino.destination({ dest, minLength: 4096, sync: false }));
  setInterval(() => logger.flush(), 1000).unref();
  return logger;
}
