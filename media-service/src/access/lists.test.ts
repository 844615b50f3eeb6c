import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { RevocationList } from './revocation';
import { TakedownList } from './takedowns';
import { signDownloadUrl, signSessionToken } from '@media-site/contracts/token';
import { keys, raw, startFixture, type Fixture, type RawResponse } from '../test/helpers';

// The takedown and revocation lists: readiness until they load, 410 for taken-down folders, 404
// for scheduled ones until their release time, list ages on /readyz, and the production rule that they must come from the bff.

/** What the bff's /internal lists look like to the media service: JSON with an ETag, 304 on a match. */
class ListServer {
  prefixes: string[] = [];
  scheduled: Record<string, number> = {};
  covers: string[] = [];
  members: string[] = [];
  failing = false;
  readonly seen: Array<{ path: string; ifNoneMatch: string | undefined; status: number; instance?: string; maxAge?: string }> = [];
  private server: Server | undefined;

  async listen(port = 0): Promise<number> {
    this.server = createServer((req, res) => {
      const body = JSON.stringify(
        req.url === '/internal/media-takedowns'
          ? { prefixes: this.prefixes, scheduled: this.scheduled, covers: this.covers }
          : { members: this.members },
      );
      const etag = `"${Buffer.from(body).toString('base64url')}"`;
      const status = this.failing ? 500 : req.headers['if-none-match'] === etag ? 304 : 200;
      this.seen.push({
        path: req.url ?? '',
        ifNoneMatch: req.headers['if-none-match'],
        status,
        instance: req.headers['x-media-instance'] as string | undefined,
        maxAge: req.headers['x-media-list-max-age'] as string | undefined,
      });
      res.writeHead(status, { 'Content-Type': 'application/json', ETag: etag });
      res.end(status === 200 ? body : undefined);
    });
    await new Promise<void>((resolve) => this.server?.listen(port, '127.0.0.1', resolve));
    return (this.server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server?.closeAllConnections();
  }
}

async function freePort(): Promise<number> {
  const probe = new ListServer();
  const port = await probe.listen();
  await probe.close();
  return port;
}

const json = (res: { body: Buffer }) =>
  JSON.parse(res.body.toString()) as Record<string, unknown> & {
    error?: { code: string; message: string };
    lists?: Record<string, Record<string, unknown>>;
  };
const session = () =>
  signSessionToken(keys, {
    memberId: 42,
    expiresAt: Math.floor(Date.now() / 1000) + 600,
    membershipActiveUntil: Math.floor(Date.now() / 1000) + 3600,
    vodPaths: ['show-1'],
  });

describe('before the lists have loaded once', () => {
  let fx: Fixture | undefined;
  const bff = new ListServer();
  afterEach(async () => {
    await fx?.stop();
    await bff.close();
  });

  it('answers /readyz 503 and every media request 503 with Retry-After, then serves once the bff answers', async () => {
    const port = await freePort();
    fx = await startFixture({ MEDIA_REVOCATION_URL: `http://127.0.0.1:${port}/internal/media-revocations` });
    const ready = await raw(fx.media.url, '/readyz');
    expect(ready.status).toBe(503);
    expect(json(ready).error?.code).toBe('not_ready');
    expect(json(ready).error?.message).toMatch(/takedowns list has not loaded yet; the revocations list has not loaded yet/);
    expect(json(ready).lists).toEqual({
      takedowns: { source: 'url', loaded: false, ageSeconds: null, maxAgeSeconds: 45 },
      revocations: { source: 'url', loaded: false, ageSeconds: null, maxAgeSeconds: 45 },
    });
    for (const path of [
      '/members/freephotos/set-1/free.jpg',
      '/members/photosthumbs/set-1/large.jpg?w=320',
      '/members/video/clip-1/clip-1001.mp4',
      '/members/nothing/here',
    ]) {
      const res = await raw(fx.media.url, path, { Cookie: `media_token=${session()}` });
      expect(res.status, path).toBe(503);
      expect(res.headers['retry-after']).toBe('2');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(json(res).error?.code).toBe('not_ready');
    }

    bff.prefixes = ['freephotos/set-1/'];
    await bff.listen(port);
    // Retried within a second or two, not at the next poll (5 s).
    await expect.poll(async () => (await raw(fx!.media.url, '/readyz')).status, { timeout: 5000, interval: 50 }).toBe(200);
    expect(json(await raw(fx.media.url, '/readyz')).lists?.takedowns).toMatchObject({ source: 'url', loaded: true, ageSeconds: 0 });
    expect((await raw(fx.media.url, '/members/freephotos/set-1/free.jpg')).status).toBe(410);
    expect((await raw(fx.media.url, '/members/photosthumbs/set-1/large.jpg?w=320')).status).toBe(200);
    // Each poll names this service (host:port) and its bound, for the console's "media services' lists".
    const polls = bff.seen.filter((s) => s.status === 200);
    expect(new Set(polls.map((s) => `${s.path} ${s.maxAge}`))).toEqual(
      new Set(['/internal/media-takedowns 45', '/internal/media-revocations 45']),
    );
    for (const s of polls) expect(s.instance).toMatch(/^[\w.-]+:\d+$/);
  });

  it('starts a poll every interval however long the bff takes to answer, so a change waits one interval and one answer', async () => {
    const arrivals: number[] = [];
    const slow = createServer((_req, res) => {
      arrivals.push(performance.now());
      setTimeout(() => res.end('{"members":[]}'), 900);
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const list = new RevocationList();
    list.startPolling(`http://127.0.0.1:${(slow.address() as AddressInfo).port}/`, 1, (await import('pino')).pino({ level: 'silent' }));
    try {
      await expect.poll(() => arrivals.length, { timeout: 10_000, interval: 50 }).toBeGreaterThanOrEqual(4);
      const gaps = arrivals.slice(1, 4).map((at, i) => at - (arrivals[i] ?? 0));
      // One interval apart, not an interval after each 0.9 s answer (1.9 s).
      for (const gap of gaps) expect(gap, gaps.join(', ')).toBeLessThan(1500);
    } finally {
      list.stop();
      slow.closeAllConnections();
      slow.close();
    }
  });

  it('logs its first failures at info while the bff may still be starting (30 s), and warns after', async () => {
    // npm start runs the bff and the media service side by side: a bff that takes 5 s to listen is
    // a healthy start, not a warning.
    let now = 1_000_000;
    const list = new RevocationList(() => now);
    const lines: Array<{ level: number; failures: number }> = [];
    const logger = (await import('pino')).pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    list.startPolling(`http://127.0.0.1:${await freePort()}/internal/media-revocations`, 5, logger);
    try {
      // Five failures, about 3.75 s of retries (250 ms backing off to 2 s).
      await expect.poll(() => lines.length, { timeout: 10_000, interval: 50 }).toBeGreaterThanOrEqual(5);
      expect(lines.map((l) => l.level)).toEqual(lines.map(() => 30));
      now += 30_000;
      const seen = lines.length;
      await expect.poll(() => lines.length, { timeout: 10_000, interval: 50 }).toBeGreaterThan(seen);
      expect(lines.at(-1)?.level).toBe(40);
    } finally {
      list.stop();
    }
  });

  it('a list body of the wrong shape does not count as loaded', async () => {
    const list = new TakedownList();
    const server = createServer((_req, res) => res.end('{"nope":[]}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    list.startPolling(url, 5, (await import('pino')).pino({ level: 'silent' }));
    await expect(list.refreshFrom(url)).rejects.toThrow(/no prefixes array/);
    list.stop();
    server.close();
    expect(list.loaded).toBe(false);
  });
});

describe('once loaded', () => {
  let fx: Fixture;
  let clock = Date.now();
  const bff = new ListServer();
  const takedowns = new TakedownList(() => clock);
  const revocations = new RevocationList(() => clock);
  let base = '';

  beforeAll(async () => {
    const port = await bff.listen();
    base = `http://127.0.0.1:${port}/internal`;
    fx = await startFixture(
      {
        MEDIA_REVOCATION_URL: `http://127.0.0.1:${port}/internal/media-revocations`,
        MEDIA_REVOCATION_INTERVAL_S: '5',
        MEDIA_TAKEDOWN_INTERVAL_S: '5',
      },
      { takedowns, revocations },
    );
    while (!takedowns.loaded || !revocations.loaded) await new Promise((r) => setTimeout(r, 20));
  });
  afterAll(async () => {
    await fx?.stop();
    await bff.close();
  });

  it('answers 410 for every file of a taken-down folder, variants and members included', async () => {
    bff.prefixes = ['freephotos/set-1/', 'photos/set-1/', 'photosthumbs/set-1/', 'video/clip-1/'];
    await takedowns.refreshFrom(`${base}/media-takedowns`);
    const member = { Cookie: `media_token=${session()}` };
    for (const path of [
      '/members/freephotos/set-1/free.jpg',
      '/members/freephotos/set-1/free.jpg?w=320',
      '/members/photosthumbs/set-1/large.jpg?w=160',
      '/members/photos/set-1/full.jpg',
      '/members/video/clip-1/clip-1001.mp4',
    ]) {
      const res = await raw(fx.media.url, path, member);
      expect(res.status, path).toBe(410);
      expect(json(res).error?.code).toBe('gone');
    }
    expect((await raw(fx.media.url, '/members/videothumbs/clip-1/clip-1_02.jpg')).status).toBe(200);
    bff.prefixes = [];
    await takedowns.refreshFrom(`${base}/media-takedowns`);
    expect((await raw(fx.media.url, '/members/freephotos/set-1/free.jpg')).status).toBe(200);
  });

  it('answers 404 for every file of an item scheduled for later, previews included, until its release time, with no poll between', async () => {
    const at = clock + 2500;
    bff.scheduled = { 'freephotos/set-1/': at, 'videothumbs/clip-1/': at, 'videopreviews/clip-1/': at, 'video/clip-1/': at };
    await takedowns.refreshFrom(`${base}/media-takedowns`);
    const member = { Cookie: `media_token=${session()}` };
    const files = [
      '/members/freephotos/set-1/free.jpg',
      '/members/videothumbs/clip-1/clip-1_02.jpg',
      '/members/videopreviews/clip-1/poster.jpg',
    ];
    for (const path of [...files, '/members/video/clip-1/clip-1001.mp4']) {
      const res = await raw(fx.media.url, path, member);
      expect(res.status, path).toBe(404);
      expect(json(res).error?.code).toBe('not_found');
      // The front door's thumbnail cache may keep this 404 only until the release (whole seconds);
      // a member file's 404 is a missing file's, which no cache keeps.
      expect(res.headers['x-accel-expires'], path).toBe(files.includes(path) ? '1' : undefined);
    }
    clock = at;
    expect((await raw(fx.media.url, files[0]!)).status).toBe(200);
    expect((await raw(fx.media.url, files[1]!)).status).toBe(200);
    expect((await raw(fx.media.url, files[2]!)).headers['x-accel-expires']).toBeUndefined();
    bff.scheduled = {};
  });

  it("answers a scheduled item's files exactly as a folder that does not exist, whatever the credential", async () => {
    // Each scheduled folder and a folder that was never there, in the same family.
    const ABSENT: Record<string, string> = { 'set-1': 'no-set', 'clip-1': 'no-clip', 'show-1': 'no-show' };
    const absent = (s: string) => s.replace(/set-1|clip-1|show-1/g, (f) => ABSENT[f]!);
    bff.scheduled = Object.fromEntries(
      ['photos/set-1/', 'photosthumbs/set-1/', 'video/clip-1/', 'videorenditions/clip-1/', 'vod/show-1/', 'vodrenditions/show-1/'].map(
        (prefix) => [prefix, clock + 60_000],
      ),
    );
    await takedowns.refreshFrom(`${base}/media-takedowns`);
    const cookie = (membershipSeconds: number) => ({
      Cookie: `media_token=${signSessionToken(keys, {
        memberId: 42,
        expiresAt: Math.floor(Date.now() / 1000) + 600,
        membershipActiveUntil: Math.floor(Date.now() / 1000) + membershipSeconds,
        vodPaths: ['show-1', 'no-show'],
      })}`,
    });
    const CREDENTIALS: Record<string, (path: string) => { path: string; headers: Record<string, string> }> = {
      none: (path) => ({ path, headers: {} }),
      'a page navigation': (path) => ({ path, headers: { Accept: 'text/html', 'Sec-Fetch-Mode': 'navigate' } }),
      'a member cookie': (path) => ({ path, headers: cookie(3600) }),
      'a lapsed cookie': (path) => ({ path, headers: cookie(-3600) }),
      'a download link': (path) => ({
        path: signDownloadUrl(keys, { path: path.split('?')[0]!, memberId: 42, expiresAt: Math.floor(Date.now() / 1000) + 600 }),
        headers: {},
      }),
    };
    const PATHS = [
      '/members/photos/set-1/full.jpg',
      '/members/photos/set-1/full.jpg?w=320',
      '/members/photos/set-1/full.jpg?w=33',
      '/members/photos/set-1/set-1.zip',
      '/members/photos/set-1/set-1.zip?w=320',
      '/members/video/clip-1/clip-1001.mp4',
      '/members/videorenditions/clip-1/720p.mp4',
      '/members/videorenditions/clip-1/clip-1001_720p.mp4',
      '/members/vod/show-1/show-1.mp4',
      '/members/vodrenditions/show-1/show-1_720p.mp4',
      '/members/photosthumbs/set-1/large.jpg',
      '/members/photosthumbs/set-1/large.jpg?w=33',
    ];
    // Headers a request's own answer varies in; X-Accel-Expires is the front door's cache lifetime
    // for a public 404 (nginx never passes X-Accel-* to a client).
    const ASIDE = new Set(['date', 'x-request-id', 'content-length', 'connection', 'keep-alive']);
    const seen = (res: RawResponse, family: string) => ({
      status: res.status,
      body: absent(res.body.toString()),
      headers: Object.fromEntries(
        Object.entries(res.headers)
          .filter(([name]) => !ASIDE.has(name) && !(family === 'photosthumbs' && name === 'x-accel-expires'))
          .map(([name, value]) => [name, absent(String(value))]),
      ),
    });
    for (const path of PATHS)
      for (const [how, credential] of Object.entries(CREDENTIALS)) {
        const family = path.split('/')[2]!;
        const scheduled = credential(path);
        const never = credential(absent(path));
        const asked = { path, how };
        expect({ ...asked, ...seen(await raw(fx.media.url, scheduled.path, scheduled.headers), family) }).toEqual({
          ...asked,
          ...seen(await raw(fx.media.url, never.path, never.headers), family),
        });
      }
    bff.scheduled = {};
  });

  it('opens a teased item\'s cover before its release ("Coming soon"), and no other file of it; its 404s are kept at most 5 s', async () => {
    const at = clock + 3 * 86_400_000;
    bff.scheduled = { 'videothumbs/clip-1/': at, 'video/clip-1/': at };
    bff.covers = ['videothumbs/clip-1/clip-1_02.jpg'];
    await takedowns.refreshFrom(`${base}/media-takedowns`);
    expect((await raw(fx.media.url, '/members/videothumbs/clip-1/clip-1_02.jpg')).status).toBe(200);
    const other = await raw(fx.media.url, '/members/videothumbs/clip-1/clip-1_05.jpg');
    expect(other.status).toBe(404);
    // Days before the release, the front door still asks again within 5 s: a tease or an unschedule shows.
    expect(other.headers['x-accel-expires']).toBe('5');
    expect((await raw(fx.media.url, '/members/video/clip-1/clip-1001.mp4', { Cookie: `media_token=${session()}` })).status).toBe(404);
    bff.covers = [];
    await takedowns.refreshFrom(`${base}/media-takedowns`);
    expect((await raw(fx.media.url, '/members/videothumbs/clip-1/clip-1_02.jpg')).status).toBe(404);
    bff.scheduled = {};
  });

  it('asks with If-None-Match; a 304 keeps the list and counts as a refresh', async () => {
    bff.prefixes = ['vod/show-2/'];
    bff.members = ['7'];
    await takedowns.refreshFrom(`${base}/media-takedowns`);
    await revocations.refreshFrom(`${base}/media-revocations`);
    const seen = bff.seen.length;
    clock += 20_000;
    await takedowns.refreshFrom(`${base}/media-takedowns`);
    await revocations.refreshFrom(`${base}/media-revocations`);
    expect(bff.seen.slice(seen).map((s) => [s.status, Boolean(s.ifNoneMatch)])).toEqual([
      [304, true],
      [304, true],
    ]);
    expect(takedowns.isTakenDown({ family: 'vod', rest: ['show-2', 'show-2.mp4'], relative: 'vod/show-2/show-2.mp4' })).toBe(true);
    expect(revocations.has('7')).toBe(true);
    expect(json(await raw(fx.media.url, '/readyz')).lists?.takedowns?.ageSeconds).toBe(0);
  });

  it('reports each list’s age, and is unready (still serving the last lists) once one is older than its limit', async () => {
    await takedowns.refreshFrom(`${base}/media-takedowns`);
    await revocations.refreshFrom(`${base}/media-revocations`);
    bff.failing = true;
    clock += 30_000;
    let ready = await raw(fx.media.url, '/readyz');
    expect(ready.status).toBe(200);
    expect(json(ready).lists?.takedowns).toMatchObject({ ageSeconds: 30, maxAgeSeconds: 45 });
    expect(json(ready).lists?.revocations).toMatchObject({ ageSeconds: 30, maxAgeSeconds: 45 });

    clock += 16_000;
    await expect(takedowns.refreshFrom(`${base}/media-takedowns`)).rejects.toThrow(/answered 500/);
    ready = await raw(fx.media.url, '/readyz');
    expect(ready.status).toBe(503);
    expect(json(ready).error?.message).toBe('the takedowns list is 46 s old (limit 45 s); the revocations list is 46 s old (limit 45 s)');
    // Fail-static: the last lists still apply.
    expect((await raw(fx.media.url, '/members/vod/show-2/show-2.mp4', { Cookie: `media_token=${session()}` })).status).toBe(410);
    expect((await raw(fx.media.url, '/members/freephotos/set-1/free.jpg')).status).toBe(200);

    bff.failing = false;
    await takedowns.refreshFrom(`${base}/media-takedowns`);
    await revocations.refreshFrom(`${base}/media-revocations`);
    expect((await raw(fx.media.url, '/readyz')).status).toBe(200);
  });
});

describe('without list URLs', () => {
  it('is ready with empty lists outside production', async () => {
    const fx = await startFixture();
    try {
      const ready = await raw(fx.media.url, '/readyz');
      expect(ready.status).toBe(200);
      expect(json(ready).lists).toEqual({
        takedowns: { source: 'static', loaded: true, ageSeconds: null, maxAgeSeconds: null },
        revocations: { source: 'static', loaded: true, ageSeconds: null, maxAgeSeconds: null },
      });
    } finally {
      await fx.stop();
    }
  });

  it('refuses to start in production, a takedown poll slower than 10 s and a revocation poll slower than 5 s anywhere', () => {
    const env = {
      MEDIA_ROOT: '/tmp',
      VARIANT_CACHE_DIR: '/tmp/v',
      MEDIA_TOKEN_KEYS: `k1:${randomBytes(48).toString('base64')}`,
      NODE_ENV: 'production',
    };
    expect(() => loadConfig(env)).toThrow(/MEDIA_REVOCATION_URL: required in production/);
    expect(loadConfig({ ...env, MEDIA_REVOCATION_URL: 'http://bff:3001/internal/media-revocations' }).takedownUrl).toBe(
      'http://bff:3001/internal/media-takedowns',
    );
    // The 15 s front-door bound leaves room for a poll of at most 10 s.
    expect(() => loadConfig({ ...env, MEDIA_REVOCATION_URL: 'http://bff:3001/x', MEDIA_TAKEDOWN_INTERVAL_S: '30' })).toThrow(
      /MEDIA_TAKEDOWN_INTERVAL_S/,
    );
    // Sign out everywhere reaches minted links and cookies within 10 s: a poll and its answer.
    expect(loadConfig({ ...env, MEDIA_REVOCATION_URL: 'http://bff:3001/x' }).revocationIntervalSeconds).toBe(5);
    expect(() => loadConfig({ ...env, MEDIA_REVOCATION_URL: 'http://bff:3001/x', MEDIA_REVOCATION_INTERVAL_S: '60' })).toThrow(
      /MEDIA_REVOCATION_INTERVAL_S/,
    );
  });
});
