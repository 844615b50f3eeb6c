import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '@media-site/db/testing';
import { loadConfig } from './config';
import { startBff, type RunningBff } from './server';
import { silentLogger } from './test/harness';
import { insertCatalog } from './test/fixtures';

// The running bff builds every listing's page anchors after each catalog change, so the first deep
// page after a change reads a short index range instead of paying for the build.
describe('page anchors warmed after a catalog change', () => {
  let db: TestDb;
  let bff: RunningBff;
  const builds: string[] = [];
  const record = (q: { sql: string }) => {
    if (/row_number\(\)/i.test(q.sql)) builds.push(q.sql);
  };
  beforeAll(async () => {
    db = await createTestDb('sqlite');
    await insertCatalog(db.knex);
    db.knex.on('query', record);
    const config = loadConfig({ DATABASE_URL: db.url, BFF_PORT: '0', LOG_LEVEL: 'silent', PAGE_ANCHOR_EVERY: '4', CACHE_TTL_SECONDS: '0' });
    bff = await startBff(config, { knex: db.knex, logger: silentLogger });
  });
  afterAll(async () => {
    await bff?.close();
    await db?.destroy();
  });

  const waitForBuilds = async (n: number) => {
    for (let i = 0; i < 200 && builds.length < n; i++) await new Promise((r) => setTimeout(r, 10));
    return builds.length;
  };

  it('builds all six listings at start, and again after each change, before any deep page asks', async () => {
    // photosets and videos in both orders, vods by date, the updates feed.
    expect(await waitForBuilds(6)).toBe(6);
    builds.length = 0;
    await bff.cache.catalogChanged();
    expect(await waitForBuilds(6)).toBe(6);
    await new Promise((r) => setTimeout(r, 50));
    builds.length = 0;
    for (const path of ['/api/photos/3', '/api/photos-by-date/2', '/api/videos/2', '/api/vod/2', '/api/updates/3']) {
      const res = await fetch(bff.url + path);
      expect(res.status, path).toBe(200);
      expect(((await res.json()) as unknown[]).length, path).toBeGreaterThan(0);
    }
    expect(builds).toEqual([]);
  });

  it('answers deep pages from fresh anchors after a change (no stale page)', async () => {
    const before = (await (await fetch(bff.url + '/api/photos/3')).json()) as Array<{ updatename: string }>;
    await db
      .knex('photosets')
      .insert({ ...(await db.knex('photosets').first()), id: undefined, path: 'aaa-new', updatename: 'AAA first of all' });
    await bff.cache.catalogChanged();
    const after = (await (await fetch(bff.url + '/api/photos/3')).json()) as Array<{ updatename: string }>;
    // One more set sorted before all others shifts page 3 by one row.
    expect(after[0]?.updatename).not.toBe(before[0]?.updatename);
  });
});
