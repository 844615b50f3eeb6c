import type { Logger } from 'pino';
import { createKnex } from '@media-site/db';
import { startCatalogCache } from '@media-site/bff/catalog-cache';
import { knexLog } from '@media-site/bff/logger';
import { followFrontGeneration, type FrontGenerationLink } from '@media-site/bff/front-generation';
import type { FollowerConfig } from './config';

export interface Follower {
  link: FrontGenerationLink;
  /** The Redis connection's state ('ready', 'not configured', ...). */
  redisStatus(): string;
  close(): Promise<void>;
}

/**
 * Keeps this host's FRONT_GENERATION_DIR on the catalog generation without a shared folder: the
 * same generation tracking as a bff (the Redis announcement at once, the database poll when one is
 * missed, a re-read on every reconnect) with caching off, writing the link the bff would write.
 */
export async function startFollower(config: FollowerConfig, logger: Logger): Promise<Follower> {
  const knex = createKnex(config.DATABASE_URL, { poolMax: 1, log: knexLog(logger) });
  const started = await startCatalogCache(
    {
      REDIS_URL: config.REDIS_URL,
      REDIS_SENTINELS: config.REDIS_SENTINELS,
      REDIS_SENTINEL_NAME: config.REDIS_SENTINEL_NAME,
      REDIS_COMMAND_TIMEOUT_MS: 1000,
      CACHE_TTL_SECONDS: 0,
      CACHE_GENERATION_POLL_MS: config.FOLLOW_POLL_MS,
      CACHE_LOCAL_MAX_ENTRIES: 0,
      CACHE_KEY_PREFIX: config.CACHE_KEY_PREFIX,
    },
    knex,
    logger,
    // The bffs bump the generation when a scheduled release falls due; a follower only follows.
    { releases: false },
  );
  const link = followFrontGeneration(started.cache, config.FRONT_GENERATION_DIR, logger)!;
  started.cache.onGenerationChange((generation) => logger.info({ generation }, 'front-door generation link moved'));
  logger.info({ dir: config.FRONT_GENERATION_DIR, generation: link.current() }, 'following the catalog generation');
  return {
    link,
    redisStatus: () => started.cache.redisStatus,
    async close() {
      await started.close();
      await knex.destroy();
    },
  };
}
