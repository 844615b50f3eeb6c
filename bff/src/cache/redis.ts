import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { sentinelOptions, type RedisHaSettings } from '@media-site/db';

export interface RedisClientOptions {
  commandTimeoutMs: number;
  logger: Logger;
  /** A subscriber queues SUBSCRIBE until connected; command clients never queue. */
  role: 'commands' | 'subscriber';
  /** REDIS_SENTINELS / REDIS_SENTINEL_NAME: follow the master Sentinel names instead of REDIS_URL's host. */
  ha?: RedisHaSettings | undefined;
}

/**
 * A cache must never make a request wait for Redis: no offline queue, no per-command retries, a
 * short command timeout, and reconnection in the background with a capped backoff.
 */
export function createRedis(url: string, { commandTimeoutMs, logger, role, ha }: RedisClientOptions): Redis {
  const subscriber = role === 'subscriber';
  const redis = new Redis(url, {
    ...sentinelOptions(ha ?? {}),
    enableOfflineQueue: subscriber,
    maxRetriesPerRequest: subscriber ? null : 0,
    commandTimeout: subscriber ? undefined : commandTimeoutMs,
    connectTimeout: 1000,
    retryStrategy: (times) => Math.min(100 * 2 ** Math.min(times, 5), 2000),
    enableReadyCheck: true,
    // Named in CLIENT LIST, so an operator (and the failover test) sees which connections are the bff's.
    connectionName: `bff-${role}`,
  });
  let lastLogged = 0;
  redis.on('error', (err: Error) => {
    // While Redis is away ioredis reports every reconnect attempt; one line per 10 s is enough.
    const now = Date.now();
    if (now - lastLogged < 10_000) return;
    lastLogged = now;
    logger.warn({ err: err.message, role }, 'redis unavailable; serving from the database');
  });
  redis.on('ready', () => logger.info({ role }, 'redis connected'));
  return redis;
}
