import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, testBackends, type TestDb } from '@media-site/db/testing';
import { insertCatalog } from '../test/fixtures';
import { testApp, type TestApp } from '../test/harness';
import { freePort, startRedisServer, waitFor } from '../test/redis-server';

// A hang guard only: an answer that waited on a dead Redis (ioredis' default is ~10 s) would exceed it.
const HANG_GUARD_MS = 1000;

describe('Redis stopped and restarted mid-test', () => {
  let db: TestDb;
  let t: TestApp;
  let redis: Awaited<ReturnType<typeof startRedisServer>>;
  let port: number;
  const keyPrefix = 'outage:';

  beforeAll(async () => {
    db = await createTestDb(testBackends()[0]!);
    await insertCatalog(db.knex);
    port = await freePort();
    redis = await startRedisServer(port);
    t = await testApp(db.knex, { redisUrl: redis.url, keyPrefix });
    await waitFor(() => t.cache.redisStatus === 'ready', 'redis connection');
  });
  afterAll(async () => {
    await t?.close();
    await redis?.stop();
    await db?.destroy();
  });

  async function timedGet(url: string) {
    const started = Date.now();
    const res = await t.request.get(url).timeout(5000).expect(200);
    expect(Date.now() - started).toBeLessThan(HANG_GUARD_MS);
    return res;
  }

  async function redisKeys(): Promise<string[]> {
    const probe = new Redis(redis.url);
    try {
      return await probe.keys(`${keyPrefix}c:*`);
    } finally {
      probe.disconnect();
    }
  }

  it('keeps answering correctly from the database while Redis is down, then uses Redis again', async () => {
    const expected = {
      photos: (await timedGet('/api/photos/2')).text,
      search: (await timedGet('/api/search/title%2001')).text,
    };
    await waitFor(async () => (await redisKeys()).length === 2, 'entries in Redis');

    await redis.stop();
    // Changing the catalog while Redis is down must still be visible (the generation lives in the DB).
    const generation = await t.cache.catalogChanged();
    for (let i = 0; i < 5; i++) {
      expect((await timedGet('/api/photos/2')).text).toBe(expected.photos);
      expect((await timedGet('/api/search/title%2001')).text).toBe(expected.search);
      expect((await timedGet(`/api/vod/${i + 1}`)).status).toBe(200);
    }
    const ready = await t.request.get('/readyz').expect(200);
    expect(ready.body.database).toBe('up');
    expect(ready.body.redis).not.toBe('ready');

    redis = await startRedisServer(port);
    await waitFor(() => t.cache.redisStatus === 'ready', 'ioredis to reconnect');
    expect(t.cache.currentGeneration).toBe(generation);
    await t.cache.catalogChanged();
    expect((await timedGet('/api/photos/2')).text).toBe(expected.photos);
    await waitFor(async () => (await redisKeys()).length === 1, 'the refilled entry in the restarted Redis');
  });
});
