import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, testBackends, testRedisUrl, type TestDb } from '@media-site/db/testing';
import { searchText } from '@media-site/db';
import { insertCatalog } from '../test/fixtures';
import { countContentQueries, testApp, type TestApp } from '../test/harness';
import { waitFor } from '../test/redis-server';

async function addFirstPhotoSet(knex: TestDb['knex'], path: string): Promise<void> {
  const updatename = `Aaa ${path}`;
  await knex('photosets').insert({
    path,
    updatename,
    modelname: 'Anna Alpha',
    datetoupload: '2030-01-01',
    search_text: searchText(updatename, 'Anna Alpha'),
  });
}

describe.each(testBackends())('catalog cache (%s)', (backend) => {
  let db: TestDb;
  let t: TestApp;
  beforeAll(async () => {
    db = await createTestDb(backend);
    await insertCatalog(db.knex);
    t = await testApp(db.knex);
  });
  afterAll(async () => {
    await t?.close();
    await db?.destroy();
  });

  it('answers a repeated listing or search without touching the database', async () => {
    for (const url of ['/api/photos/1', '/api/updates/2', '/api/search/title', '/api/modelname/Anna%20Alpha']) {
      const first = await t.request.get(url).expect(200);
      const queries = countContentQueries(db.knex);
      const again = await t.request.get(url).expect(200);
      queries.stop();
      expect(queries.count).toBe(0);
      expect(again.text).toBe(first.text);
    }
    expect(t.cache.stats.localHits).toBeGreaterThanOrEqual(4);
  });

  it('runs one query for many concurrent misses of one key', async () => {
    const queries = countContentQueries(db.knex);
    const answers = await Promise.all(Array.from({ length: 20 }, () => t.request.get('/api/photos-by-date/1').expect(200)));
    queries.stop();
    expect(queries.count).toBe(1);
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
  });

  it('shows a catalog change at once through catalogChanged', async () => {
    await t.request.get('/api/photos/1').expect(200);
    await addFirstPhotoSet(db.knex, 'brand-new-set');
    // Without the bump the cached page is (correctly) still served...
    expect((await t.request.get('/api/photos/1')).body[0].path).not.toBe('brand-new-set');
    const before = t.cache.currentGeneration!;
    expect(await t.cache.catalogChanged()).toBe(before + 1);
    expect((await t.request.get('/api/photos/1')).body[0].path).toBe('brand-new-set');
    expect((await t.request.get('/api/search/brand-new')).body.photos).toHaveLength(1);
  });

  it('rebuilds the page anchors of deep pages after a catalog change', async () => {
    const page2 = (await t.request.get('/api/photos/2').expect(200)).body as Array<{ path: string }>;
    await t.request.get('/api/updates/2').expect(200);
    await addFirstPhotoSet(db.knex, 'another-new-set');
    await t.cache.catalogChanged();
    const page3 = (await t.request.get('/api/photos/3').expect(200)).body as Array<{ path: string }>;
    // One new row sorts first, so everything moves down one place.
    expect(page3[0]!.path).toBe(page2.at(-1)!.path);
    const feed = (await t.request.get('/api/updates/1').expect(200)).body as Array<{ path: string }>;
    expect(feed[0]!.path).toBe('another-new-set');
  });

  it('picks up a generation bumped elsewhere by polling the database', async () => {
    const polling = await testApp(db.knex, { pollMs: 50 });
    try {
      await polling.request.get('/api/videos/1').expect(200);
      const generation = await t.cache.catalogChanged();
      await waitFor(() => polling.cache.currentGeneration === generation, 'the poll to see the new generation');
    } finally {
      await polling.close();
    }
  });

  it('does not cache when the TTL is 0', async () => {
    const uncached = await testApp(db.knex, { ttlSeconds: 0 });
    try {
      const queries = countContentQueries(db.knex);
      await uncached.request.get('/api/photos/1').expect(200);
      await uncached.request.get('/api/photos/1').expect(200);
      queries.stop();
      expect(queries.count).toBe(2);
    } finally {
      await uncached.close();
    }
  });
});

const redisUrl = testRedisUrl();
describe.runIf(redisUrl)('shared Redis tier', () => {
  const backend = testBackends()[0]!;
  const keyPrefix = `bfftest:${randomBytes(4).toString('hex')}:`;
  let db: TestDb;
  let a: TestApp;
  let b: TestApp;
  let inspect: Redis;
  beforeAll(async () => {
    db = await createTestDb(backend);
    await insertCatalog(db.knex);
    // Two instances over one database and one Redis, as behind a load balancer; neither polls soon.
    a = await testApp(db.knex, { redisUrl, keyPrefix });
    b = await testApp(db.knex, { redisUrl, keyPrefix });
    inspect = new Redis(redisUrl!);
    await waitFor(() => a.cache.redisStatus === 'ready' && b.cache.redisStatus === 'ready', 'redis connections');
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    const keys = await inspect.keys(`${keyPrefix}*`);
    if (keys.length) await inspect.del(...keys);
    inspect?.disconnect();
    await db?.destroy();
  });

  it('lets a second instance answer from Redis without a database query', async () => {
    const first = await a.request.get('/api/vod/1').expect(200);
    await waitFor(async () => (await inspect.keys(`${keyPrefix}c:*vod:1`)).length === 1, 'the entry in Redis');
    const queries = countContentQueries(db.knex);
    const second = await b.request.get('/api/vod/1').expect(200);
    queries.stop();
    expect(queries.count).toBe(0);
    expect(b.cache.stats.redisHits).toBe(1);
    expect(second.text).toBe(first.text);
  });

  it('tells other instances about a catalog change over pub/sub', async () => {
    await b.request.get('/api/photos/1').expect(200);
    await addFirstPhotoSet(db.knex, 'announced-set');
    const generation = await a.cache.catalogChanged();
    await waitFor(() => b.cache.currentGeneration === generation, 'the announcement to reach instance b');
    expect((await b.request.get('/api/photos/1')).body[0].path).toBe('announced-set');
  });
});
