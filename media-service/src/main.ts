import { pino } from 'pino';
import { loadConfig } from './config';
import type { MediaConfig } from './config';
import { startMedia } from './server';

let config: MediaConfig;
try {
  config = loadConfig(process.env);
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}

const logger = pino({ level: config.logLevel, base: { service: 'media' } });
const media = await startMedia(config, { logger });

let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down');
  media.close().then(
    () => process.exit(0),
    (err: unknown) => {
      logger.error({ err }, 'shutdown failed');
      process.exit(1);
    },
  );
};
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));
