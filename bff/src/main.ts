import { hashLogNFromEnv } from '@media-site/db/members';
import { ConfigError, loadConfig } from './config';
import { createLogOutput } from './logger';
import { startBff } from './server';

let config;
try {
  config = loadConfig();
  // PASSWORD_HASH_LOG_N is read where passwords are hashed; a bad or test-only value stops the start here.
  hashLogNFromEnv();
} catch (err) {
  console.error(err instanceof ConfigError || err instanceof Error ? err.message : err);
  process.exit(1);
}

const { logger, destination } = createLogOutput(config.LOG_LEVEL);
const bff = await startBff(config, { logger, logDestination: destination });

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    bff.close().then(
      () => {
        logger.info('stopped');
        logger.flush(() => process.exit(0));
      },
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
