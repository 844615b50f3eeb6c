import type { Knex } from 'knex';
import type { Redis } from 'ioredis';
import { generationChannel } from '@media-site/contracts/generation';
import { bumpGeneration } from '@media-site/db';

export { generationChannel };

export interface CatalogChangedDeps {
  knex: Knex;
  redis?: Redis | undefined;
  keyPrefix: string;
}

/**
 * Call after a catalog change has committed: bumps the generation in the database (the truth every
 * instance polls) and announces it on pub/sub so other instances drop their listings at once.
 */
export async function catalogChanged({ knex, redis, keyPrefix }: CatalogChangedDeps): Promise<number> {
  const generation = await bumpGeneration(knex);
  await announceGeneration(redis, keyPrefix, generation);
  return generation;
}

/** Publishes a generation already bumped in the database; one attempt, the poll covers a lost one. */
export async function announceGeneration(redis: Redis | undefined, keyPrefix: string, generation: number): Promise<void> {
  if (redis && redis.status === 'ready') {
    await redis.publish(generationChannel(keyPrefix), String(generation)).catch(() => undefined);
  }
}
