import type { Knex } from 'knex';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { CatalogCache } from './catalog-cache';
import { createRedis } from './redis';
import { ReleaseTimer } from './release-timer';

export interface CacheSettings {
  REDIS_URL?: string | undefined;
  REDIS_SENTINELS?: string | undefined;
  REDIS_SENTINEL_NAME?: string | undefined;
  REDIS_COMMAND_TIMEOUT_MS: number;
  CACHE_TTL_SECONDS: number;
  CACHE_GENERATION_POLL_MS: number;
  CACHE_LOCAL_MAX_ENTRIES: number;
  CACHE_KEY_PREFIX: string;
}

export interface StartedCache {
  cache: CatalogCache;
  redis: Redis | undefined;
  close(): Promise<void>;
}

/**
 * The catalog cache with its Redis connections (none without REDIS_URL), already following the
 * generation, and (unless `releases` is false: a follower that only reads) the scheduled-release
 * timer that bumps the generation when a `publish_at` falls due.
 */
export async function startCatalogCache(
  settings: CacheSettings,
  knex: Knex,
  logger: Logger,
  { releases = true }: { releases?: boolean } = {},
): Promise<StartedCache> {
  let redis: Redis | undefined;
  let subscriber: Redis | undefined;
  if (settings.REDIS_URL) {
    const ha = { REDIS_SENTINELS: settings.REDIS_SENTINELS, REDIS_SENTINEL_NAME: settings.REDIS_SENTINEL_NAME };
    const options = { commandTimeoutMs: settings.REDIS_COMMAND_TIMEOUT_MS, logger, ha };
    redis = createRedis(settings.REDIS_URL, { ...options, role: 'commands' });
    subscriber = createRedis(settings.REDIS_URL, { ...options, role: 'subscriber' });
  }
  const cache = new CatalogCache({
    knex,
    redis,
    subscriber,
    ttlSeconds: settings.CACHE_TTL_SECONDS,
    pollMs: settings.CACHE_GENERATION_POLL_MS,
    localMaxEntries: settings.CACHE_LOCAL_MAX_ENTRIES,
    keyPrefix: settings.CACHE_KEY_PREFIX,
    logger,
  });
  await cache.start();
  const releaseTimer = releases ? new ReleaseTimer(knex, cache, logger) : undefined;
  releaseTimer?.start();
  return {
    cache,
    redis,
    async close() {
      releaseTimer?.stop();
      await cache.close();
      redis?.disconnect();
      subscriber?.disconnect();
    },
  };
}
