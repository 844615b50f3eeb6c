import pino from 'pino';
import { loadFollowerConfig } from './config';
import { startFollower } from './follow';
import { createFollowerMetrics, startMetricsServer } from './metrics';

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
const metrics =
  config.METRICS_PORT === undefined
    ? undefined
    : await startMetricsServer(createFollowerMetrics(follower), config.METRICS_PORT, config.METRICS_HOST);
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    logger.info({ signal }, 'shutting down');
    void Promise.all([metrics?.close(), follower.close()]).then(() => process.exit(0));
  });
}
