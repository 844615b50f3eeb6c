import { Redis } from 'ioredis';
import { generationChannel } from '@media-site/contracts/generation';
import { sentinelOptions, type RedisHaSettings } from './redis-ha';

/**
 * Tells running bff instances the catalog changed so they drop cached listings now rather than at
 * their next poll of the database. One attempt, short timeouts: the database is the truth anyway.
 */
export async function publishGeneration(
  redisUrl: string,
  keyPrefix: string,
  generation: number,
  ha: RedisHaSettings = {},
): Promise<number> {
  const redis = new Redis(redisUrl, {
    ...sentinelOptions(ha, { oneShot: true }),
    lazyConnect: true,
    connectTimeout: 2000,
    commandTimeout: 2000,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  redis.on('error', () => {});
  try {
    await redis.connect();
    return await redis.publish(generationChannel(keyPrefix), String(generation));
  } finally {
    redis.disconnect();
  }
}
