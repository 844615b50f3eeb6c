import pino from 'pino';
import { loadFollowerConfig } from './config';
import { startFollower } from './follow';

// The generation follower: one beside each nginx host (docs/deploy.md, "Several nginx hosts").
let config;
try {
  config = loadFollowerConfig();
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}
const logger = pino({ level: config.LOG_LEVEL, base: { service: 'front-follower' } });
const follower = await startFollower(config, logger);
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    logger.info({ signal }, 'shutting down');
    void follower.close().then(() => process.exit(0));
  });
}
