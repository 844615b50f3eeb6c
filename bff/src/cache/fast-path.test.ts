import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '@media-site/db/testing';
import { loadConfig } from '../config';
import { startBff, type RunningBff } from '../server';
import { insertCatalog } from '../test/fixtures';
import { silentLogger } from '../test/harness';
import { createAccessLog } from '../access-log';
import { cachedFastPath } from './fast-path';

// The cached fast path answers repeats outside Koa: it must be indistinguishable from the Koa chain.
describe('cached fast path (node:http in front of Koa)', () => {
  let db: TestDb;
  let bff: RunningBff;
  const lines: Array<{ reqId: string; method: string; url: string; status: number; msg: string }> = [];
  beforeAll(async () => {
    db = await createTestDb('sqlite');
    await insertCatalog(db.knex);
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line) as (typeof lines)[number]);
        done();
      },
    });
    const logger = pino({ level: 'info' }, sink);
    bff = await startBff(loadConfig({ DATABASE_URL: db.url, BFF_PORT: '0', LOG_LEVEL: 'info' }), {
      knex: db.knex,
      logger,
      logDestination: sink,
    });
  });
  afterAll(async () => {
    await bff?.close();
    await db?.destroy();
  });

  const get = (path: string, headers: Record<string, string> = {}) => fetch(bff.url + path, { headers });
  const comparable = (res: Response) => {
    const headers = Object.fromEntries(res.headers);
    delete headers.date;
    delete headers['x-request-id'];
    return headers;
  };

  it('answers a repeat with the same status, headers and bytes as the first (Koa) answer', async () => {
    const hitsBefore = bff.cache.stats.localHits;
    const first = await get('/api/videos/1');
    const firstBody = await first.text();
    const second = await get('/api/videos/1');
    expect(bff.cache.stats.localHits).toBe(hitsBefore + 1);
    expect(second.status).toBe(200);
    expect(await second.text()).toBe(firstBody);
    expect(comparable(second)).toEqual(comparable(first));
    expect(comparable(second)).toMatchObject({ 'cache-control': 'no-cache', 'content-type': 'application/json; charset=utf-8' });
  });

  it('answers a path the cache holds on its own, and declines one it does not', async () => {
    await (await get('/api/videos/1')).text();
    const fast = cachedFastPath({ cache: bff.cache, accessLog: createAccessLog(silentLogger) });
    const alone = createServer((req, res) => {
      if (!fast(req, res)) res.writeHead(599).end();
    });
    await new Promise<void>((r) => alone.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(alone.address() as AddressInfo).port}`;
    try {
      expect((await fetch(`${base}/api/videos/1`)).status).toBe(200);
      expect((await fetch(`${base}/api/videos/1`, { method: 'POST' })).status).toBe(599);
      expect((await fetch(`${base}/api/videos/2`)).status).toBe(599);
    } finally {
      await new Promise((r) => alone.close(r));
    }
  });

  it('answers 304 to a matching If-None-Match, with no body', async () => {
    const etag = (await get('/api/videos/1')).headers.get('etag')!;
    // fetch() adds Cache-Control: no-cache to a request with If-None-Match set by hand: still a 304.
    const res = await get('/api/videos/1', { 'If-None-Match': etag });
    expect(res.status).toBe(304);
    expect(res.headers.get('etag')).toBe(etag);
    expect(await res.text()).toBe('');
    expect((await get('/api/videos/1', { 'If-None-Match': `"other", W/${etag}` })).status).toBe(304);
    expect((await get('/api/videos/1', { 'If-None-Match': '"other"' })).status).toBe(200);
  });

  it('gives the first answer, from Koa, the same 304 as a replay', async () => {
    const etag = (await get('/api/videos-by-date/1')).headers.get('etag')!;
    await bff.cache.catalogChanged();
    const hitsBefore = bff.cache.stats.localHits;
    const res = await get('/api/videos-by-date/1', { 'If-None-Match': etag });
    expect(bff.cache.stats.localHits).toBe(hitsBefore);
    expect(res.status).toBe(304);
  });

  it('replays only routes declared replayable', async () => {
    await get('/api/videos/1');
    expect(bff.cache.peekPath('/api/videos/1')).toBeDefined();
    for (const path of ['/healthz', '/api/me', '/api/payment-config', '/api/videos/0', '/api/no-such-route']) {
      await (await get(path)).text();
      expect(bff.cache.peekPath(path), path).toBeUndefined();
    }
  });

  it('echoes a safe X-Request-Id, replaces an unsafe one, and logs one line per answer', async () => {
    await get('/api/videos/1');
    const echoed = await get('/api/videos/1?utm=x', { 'X-Request-Id': 'edge-42' });
    expect(echoed.headers.get('x-request-id')).toBe('edge-42');
    const replaced = await get('/api/videos/1', { 'X-Request-Id': 'bad id {"forged":1}' });
    const id = replaced.headers.get('x-request-id')!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    bff.flushAccessLog();
    expect(lines).toContainEqual(
      expect.objectContaining({ reqId: 'edge-42', method: 'GET', url: '/api/videos/1?utm=x', status: 200, msg: 'request' }),
    );
    expect(lines).toContainEqual(expect.objectContaining({ reqId: id, status: 200 }));
  });

  it('leaves other methods, misses and errors to Koa', async () => {
    await get('/api/videos/1');
    const head = await fetch(bff.url + '/api/videos/1', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect((await get('/api/videos/0')).status).toBe(400);
    expect((await get('/api/videos/0')).status).toBe(400);
    expect((await get('/no/such/path')).status).toBe(404);
  });

  it('forgets every answer when the catalog changes', async () => {
    const before = await (await get('/api/photos/1')).text();
    await db
      .knex('photosets')
      .update({ updatename: 'A renamed set' })
      .where({ id: (await db.knex('photosets').orderBy('updatename').first('id')).id });
    await bff.cache.catalogChanged();
    const after = await (await get('/api/photos/1')).text();
    expect(after).not.toBe(before);
    expect(after).toContain('A renamed set');
  });
});
