import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, rm, symlink, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startNginx, type RunningNginx } from '../src/nginx';

// Through the repo's nginx config with a stand-in bff that can hang (accepts, never
// answers): a public catalog page nginx has stored is still answered, quickly, from its cache; one
// it has not stored fails within the SPA's 8 s; and after a generation bump (a takedown) no answer
// of the old generation comes back, stale or not.

// The SPA gives up on a read after 8 s (frontend/src/features/api/fetchJson.ts): nginx must answer before.
const SPA_TIMEOUT_MS = 8000;
// A stored answer while the bff hangs: served at once (background update), not after the timeouts.
const STALE_WITHIN_MS = 1000;
// proxy_cache_valid 200 5s: past it, an entry is stale and nginx asks the bff again.
const ENTRY_LIFETIME_MS = 5000;

let work: string;
let generations: string;
let bff: Server;
let nginx: RunningNginx;
let hung = false;
let generation = 0;
const held: ServerResponse[] = [];

function stubBff(req: IncomingMessage, res: ServerResponse): void {
  if (hung) {
    held.push(res);
    return;
  }
  res.writeHead(200, { 'Content-Type': 'application/json', 'X-Catalog-Generation': String(generation) });
  res.end(JSON.stringify({ generation, url: req.url }));
}

function send(path: string): Promise<{ status: number; headers: IncomingMessage['headers']; body: string; ms: number }> {
  const { hostname, port } = new URL(nginx.url);
  const since = performance.now();
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, ms: performance.now() - since }));
    });
    const deadline = setTimeout(() => req.destroy(new Error(`${path}: no answer within 20 s`)), 20_000);
    req.on('close', () => clearTimeout(deadline));
    req.on('error', reject);
    req.end();
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What the bff's takedown does: a new generation folder and the `current` link moved to it. */
async function bumpGeneration(to: number): Promise<void> {
  await mkdir(join(generations, `g${to}`), { recursive: true });
  const next = join(generations, 'current.next');
  await unlink(next).catch(() => {});
  await symlink(`g${to}`, next);
  await unlink(join(generations, 'current'));
  await symlink(`g${to}`, join(generations, 'current'));
  await unlink(next);
}

function release(): void {
  hung = false;
  for (const res of held.splice(0)) res.destroy();
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'frontdoor-hung-'));
  generations = join(work, 'catalog-generation');
  bff = createServer(stubBff);
  await new Promise<void>((resolve) => bff.listen(0, '127.0.0.1', resolve));
  const bffUrl = `http://127.0.0.1:${(bff.address() as AddressInfo).port}`;
  nginx = await startNginx({ bffUrl, mediaUrl: bffUrl, spaDir: work, mediaRoot: work, workDir: work, catalogGenerationDir: generations });
});
afterEach(release);
afterAll(async () => {
  release();
  await nginx?.stop();
  await new Promise((resolve) => bff?.close(resolve));
  await rm(work, { recursive: true, force: true });
});

describe('a hung bff behind nginx', () => {
  it('still answers a stored catalog page, at once, and an unstored one within the SPA time-out', async () => {
    const path = '/api/photos/3';
    expect((await send(path)).headers['x-cache-status']).toBe('MISS');
    // Past the entry's lifetime: nginx would ask the bff, which now hangs.
    // (nginx's clock has 1 s steps: a margin.)
    await sleep(ENTRY_LIFETIME_MS + 1500);
    hung = true;
    for (let i = 0; i < 3; i += 1) {
      const stale = await send(path);
      expect(stale.status).toBe(200);
      expect(JSON.parse(stale.body)).toEqual({ generation: 0, url: path });
      expect(['STALE', 'UPDATING']).toContain(stale.headers['x-cache-status']);
      expect(stale.ms).toBeLessThan(STALE_WITHIN_MS);
    }
    // Nothing stored for this one: a plain 503, before the SPA's own limit.
    const cold = await send('/api/photos/4');
    expect(cold.status).toBe(503);
    expect(cold.ms).toBeLessThan(SPA_TIMEOUT_MS);
    release();
  }, 30_000);

  it('never answers from the old generation after a bump (a takedown), while the bff hangs', async () => {
    const path = '/api/photos/5';
    expect(JSON.parse((await send(path)).body)).toEqual({ generation: 0, url: path });
    expect((await send(path)).headers['x-cache-status']).toBe('HIT');
    hung = true;
    await bumpGeneration(1);
    for (let i = 0; i < 2; i += 1) {
      const after = await send(path);
      expect(after.status).toBe(503);
      expect(after.body).not.toContain('"generation":0');
      expect(['STALE', 'UPDATING', 'HIT']).not.toContain(after.headers['x-cache-status']);
      expect(after.ms).toBeLessThan(SPA_TIMEOUT_MS);
    }
    // The bff is back: the new generation's answer, never the old one.
    release();
    generation = 1;
    const back = await send(path);
    expect(back.status).toBe(200);
    expect(JSON.parse(back.body)).toEqual({ generation: 1, url: path });
  }, 40_000);
});
