import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNginx, type RunningNginx } from '../src/nginx';

// Through the repo's nginx config with a stand-in bff: an /api answer never makes nginx
// serve a file (X-Accel-Redirect) or change how it sends or stores the answer (other X-Accel-*);
// the per-address limits count an IPv6 /64 as one client. Real nginx, no timing assertions.

const SECRET = 'media-root-file-not-for-the-api';
let media: string;
let work: string;
let bff: Server;
let nginx: RunningNginx;
const seen: string[] = [];

function stubBff(req: IncomingMessage, res: ServerResponse): void {
  seen.push(req.url ?? '');
  // Whatever a compromised or buggy bff might send (asked for by "accel" in the path or query):
  // nginx must ignore all of it on /api.
  const accel = req.url?.includes('accel')
    ? { 'X-Accel-Redirect': '/_protected/secret.txt', 'X-Accel-Expires': '3600', 'X-Accel-Limit-Rate': '1', 'X-Accel-Buffering': 'no' }
    : {};
  res.writeHead(200, {
    'Content-Type': 'application/json',
    ...accel,
    // A catalog answer of the generation nginx keys on (startNginx's link points at g0).
    ...(/^\/api\/(?:photos|search)\//.test(req.url ?? '') ? { 'X-Catalog-Generation': '0' } : {}),
  });
  res.end(JSON.stringify({ from: 'bff', url: req.url }));
}

function send(
  path: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: IncomingMessage['headers']; body: string }> {
  const { hostname, port } = new URL(nginx.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path, method: options.method ?? 'GET', headers: options.headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    // X-Accel-Limit-Rate: 1 (one byte a second) would hold an answer that nginx acted on.
    const deadline = setTimeout(() => req.destroy(new Error(`${path}: no whole answer within 5 s`)), 5000);
    req.on('close', () => clearTimeout(deadline));
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  media = await mkdtemp(join(tmpdir(), 'frontdoor-api-'));
  await writeFile(join(media, 'secret.txt'), SECRET);
  work = await mkdtemp(join(tmpdir(), 'frontdoor-api-nginx-'));
  bff = createServer(stubBff);
  await new Promise<void>((resolve) => bff.listen(0, '127.0.0.1', resolve));
  const bffUrl = `http://127.0.0.1:${(bff.address() as AddressInfo).port}`;
  nginx = await startNginx({
    bffUrl,
    mediaUrl: bffUrl,
    spaDir: media,
    mediaRoot: media,
    workDir: work,
    // This test's client is the trusted proxy in front, so it can name IPv6 clients.
    vars: { FRONT_TRUSTED_PROXIES: '127.0.0.1', LOGIN_RATE: '1r/m', LOGIN_BURST: '2' },
  });
});
afterAll(async () => {
  await nginx?.stop();
  await new Promise((resolve) => bff?.close(resolve));
  await rm(media, { recursive: true, force: true });
  await rm(work, { recursive: true, force: true });
});

describe('X-Accel-* from the bff', () => {
  it.each(['/api/me?accel', '/api/photos/accel', '/api/login?accel', '/api/process_payment?accel'])(
    '%s: not followed, not passed on',
    async (path) => {
      const res = await send(path, { method: /^\/api\/(?:login|process)/.test(path) ? 'POST' : 'GET' });
      expect(res.body).not.toContain(SECRET);
      expect(JSON.parse(res.body)).toMatchObject({ from: 'bff' });
      for (const name of Object.keys(res.headers)) expect(name).not.toMatch(/^x-accel-/);
    },
  );
});

/** Files in nginx's API cache: one per stored entry. */
async function cacheEntries(): Promise<number> {
  const entries = await readdir(join(work, 'api-cache'), { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).length;
}

describe('the API cache and queries', () => {
  it('50 distinct queries on a cached route make no new entry and never reach the bff', async () => {
    const earlier = await cacheEntries();
    const first = await send('/api/photos/7');
    expect(first.headers['x-cache-status']).toBe('MISS');
    const stored = await cacheEntries();
    expect(stored).toBe(earlier + 1);
    const before = seen.length;
    for (let i = 0; i < 50; i += 1) {
      const res = await send(`/api/photos/7?x=${i}`);
      expect(res.headers['x-cache-status']).toBe('HIT');
    }
    expect(await cacheEntries()).toBe(stored);
    expect(seen.length).toBe(before);
    // The bff is asked without the query too: what is stored is what it answered for that path.
    expect((await send('/api/photos/8?x=1&y=2')).headers['x-cache-status']).toBe('MISS');
    expect(seen.at(-1)).toBe('/api/photos/8');
  });

  it("a search's filters reach the bff and are part of its key: one entry per filtered search", async () => {
    const plain = await send('/api/search/flex');
    expect(plain.headers['x-cache-status']).toBe('MISS');
    expect(seen.at(-1)).toBe('/api/search/flex');
    const stored = await cacheEntries();
    const filtered = await send('/api/search/flex?type=videos&tag=night%20drive');
    expect(filtered.headers['x-cache-status']).toBe('MISS');
    expect(seen.at(-1)).toBe('/api/search/flex?type=videos&tag=night%20drive');
    expect(JSON.parse(filtered.body).url).toBe('/api/search/flex?type=videos&tag=night%20drive');
    expect(await cacheEntries()).toBe(stored + 1);
    const before = seen.length;
    expect((await send('/api/search/flex?type=videos&tag=night%20drive')).headers['x-cache-status']).toBe('HIT');
    const again = await send('/api/search/flex');
    expect(again.headers['x-cache-status']).toBe('HIT');
    expect(JSON.parse(again.body).url).toBe('/api/search/flex');
    expect(seen.length).toBe(before);
  });
});

describe('per-address limits at the front door', () => {
  const login = (client: string) => send('/api/login', { method: 'POST', headers: { 'X-Forwarded-For': client } });

  it('count every address of one IPv6 /64 together, another /64 and IPv4 apart', async () => {
    // LOGIN_BURST 2 at 1r/m: three calls pass, then 429 for the whole /64.
    const sameBlock = ['2001:db8:1:2::1', '2001:db8:1:2::2', '2001:db8:1:2:ffff::9', '2001:db8:1:2:abcd:1:2:3'];
    const statuses = [];
    for (const client of sameBlock) statuses.push((await login(client)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await login('2001:db8:1:3::1')).status).toBe(200);
    expect((await login('203.0.113.7')).status).toBe(200);
    expect((await login('203.0.113.8')).status).toBe(200);
  });
});
