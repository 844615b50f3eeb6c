import { readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKnex } from '@media-site/db';
import { DEMO_MEMBER } from '@media-site/ops';
import { hashPassword } from '@media-site/db/members';
import { raw, type RawResponse } from '@media-site/media-service/testing/http';
import { insertMember } from '../../bff/src/account/repository';
import { countRequests, settledCount } from '../src/access-lines';
import { catalogCli } from '../src/catalog-cli';
import { startStack, type Stack } from '../src/stack';

// nginx caches the public catalog answers (nginx/nginx.conf.template, "Public catalog
// answers"), keyed by the catalog generation the bff writes for it. Real nginx with the repo's
// config, real bff and media service. No timing assertions: "visible within 1 s" is shown by the
// mechanism (the key moves with the generation before the bff answers under it) and measured by
// `npm run bench:frontdoor`; the polls below only have generous caps.
const CAP_MS = 20_000;
const ORIGIN_HEADERS = { 'Content-Type': 'application/json' };

let stack: Stack;
const bffLines: string[] = [];

beforeAll(async () => {
  // Access lines (one per request the bff sees) are counted by the stampede test.
  stack = await startStack({ frontDoor: 'nginx', accessLog: { service: 'bff', lines: bffLines } });
});
afterAll(async () => {
  await stack?.stop();
});

const get = (path: string, headers: Record<string, string> = {}) => raw(stack.url, path, headers);
const header = (res: RawResponse, name: string) => String(res.headers[name] ?? '');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const generationLink = () => readlinkSync(join(stack.catalogGenerationDir ?? '', 'current'));

/** The bff's access lines for exactly this request target. */
const bffRequests = (url: string) => countRequests(bffLines, 'url', url);
const settledBffRequests = (url: string) => settledCount(() => bffRequests(url));

async function firstPhotoset(): Promise<string> {
  const page = JSON.parse((await get('/api/photos/1')).body.toString()) as Array<{ path: string }>;
  const path = page[0]?.path;
  if (!path) throw new Error('no photo set on /api/photos/1');
  return path;
}

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const since = Date.now();
  while (Date.now() - since < CAP_MS) {
    if (await check()) return;
    await sleep(20);
  }
  throw new Error(`${what}: not within ${CAP_MS} ms`);
}

async function signIn(username: string, password: string): Promise<string> {
  const res = await fetch(`${stack.url}/api/login`, {
    method: 'POST',
    headers: { ...ORIGIN_HEADERS, Origin: stack.url },
    body: JSON.stringify({ username, password }),
  });
  expect(res.status).toBe(200);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

describe('public catalog answers through nginx', () => {
  it('are stored once and then served by nginx, with the ETag and 304 still working', async () => {
    const path = '/api/photos-by-date/1';
    const first = await get(path);
    expect(first.status).toBe(200);
    expect(header(first, 'x-cache-status')).toBe('MISS');
    const second = await get(path);
    expect(header(second, 'x-cache-status')).toBe('HIT');
    expect(second.body.equals(first.body)).toBe(true);
    expect(header(second, 'etag')).toBe(header(first, 'etag'));
    expect(header(second, 'cache-control')).toBe('no-cache');
    // The marker the cache decision rests on stays between nginx and the bff.
    expect(second.headers['x-catalog-generation']).toBeUndefined();
    // Each visitor gets their own request id, once, never the one that filled the entry.
    const mine = await get(path, { 'X-Request-Id': 'frontdoor-cache-1' });
    expect(header(mine, 'x-cache-status')).toBe('HIT');
    expect(mine.headers['x-request-id']).toBe('frontdoor-cache-1');
    const revalidated = await get(path, { 'If-None-Match': header(first, 'etag') });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body.length).toBe(0);
    expect(header(revalidated, 'x-cache-status')).toBe('HIT');
    // Gzipped on the way out from the stored identity bytes (the ETag turns weak, as for any gzip).
    const zipped = await get(path, { 'Accept-Encoding': 'gzip' });
    expect(header(zipped, 'content-encoding')).toBe('gzip');
    expect((await get(path, { 'Accept-Encoding': 'gzip', 'If-None-Match': header(zipped, 'etag') })).status).toBe(304);
  });

  it('are keyed by the catalog generation the bff writes for nginx', async () => {
    const knex = createKnex(stack.databaseUrl);
    try {
      const row = (await knex('catalog_meta').where({ name: 'generation' }).first('value')) as { value: number | string };
      await until('the link follows the generation', async () => generationLink() === `g${Number(row.value)}`);
    } finally {
      await knex.destroy();
    }
  });

  it('a 404 or a bad request is never stored', async () => {
    for (const path of ['/api/photos/99999', '/api/photos/0', '/api/modelname/nobody-at-all']) {
      const a = await get(path);
      const b = await get(path);
      expect(a.status).toBeGreaterThanOrEqual(400);
      expect(header(b, 'x-cache-status')).not.toBe('HIT');
    }
  });
});

describe('a catalog change at the front door', () => {
  it('moves the key before the bff answers under the new generation, and a takedown is never served from the cache after it', async () => {
    const photoset = await firstPhotoset();
    const listing = '/api/photos/1';
    const detail = `/api/thumbnails/${photoset}`;
    // Both in nginx's cache.
    await get(detail);
    expect(header(await get(listing), 'x-cache-status')).toBe('HIT');
    expect(header(await get(detail), 'x-cache-status')).toBe('HIT');
    const before = generationLink();

    const down = await catalogCli(stack, 'takedown', `/photos/${photoset}`, '--by', 'test', '--reason', 'cache test');
    expect(down.code, down.err).toBe(0);
    const generation = /catalog generation (\d+)/.exec(down.out)?.[1];
    expect(generation).toBeDefined();
    // The change has taken effect once the bff (straight, not through nginx) answers without it.
    await until('the bff drops the item', async () => !(await raw(stack.bffUrl, listing)).body.toString().includes(`"${photoset}"`));
    // By then the front door keys on the new generation: the old entries are unreachable.
    expect(generationLink()).toBe(`g${generation}`);
    expect(generationLink()).not.toBe(before);
    const after = await get(listing);
    expect(header(after, 'x-cache-status')).not.toBe('HIT');
    expect(after.body.toString()).not.toContain(`"${photoset}"`);
    // And never again from any entry, whatever nginx stores or revalidates meanwhile.
    for (let i = 0; i < 30; i += 1) {
      const [list, thumbs] = await Promise.all([get(listing), get(detail)]);
      expect(list.body.toString()).not.toContain(`"${photoset}"`);
      expect(thumbs.status).not.toBe(200);
      await sleep(50);
    }

    const back = await catalogCli(stack, 'restore', `/photos/${photoset}`, '--by', 'test', '--reason', 'cache test');
    expect(back.code, back.err).toBe(0);
    await until('the restored item is back at the front door', async () => (await get(listing)).body.toString().includes(`"${photoset}"`));
    expect((await get(detail)).status).toBe(200);
  });
});

describe('member answers', () => {
  it("two members' /api/me through nginx are their own, never a cached one", async () => {
    const knex = createKnex(stack.databaseUrl);
    try {
      await insertMember(knex, {
        username: 'frontdoor2',
        passwordHash: await hashPassword('frontdoor-password-2'),
        email: 'frontdoor2@example.com',
        now: Date.now(),
      });
    } finally {
      await knex.destroy();
    }
    const cookies = [await signIn(DEMO_MEMBER.username, DEMO_MEMBER.password), await signIn('frontdoor2', 'frontdoor-password-2')];
    for (let round = 0; round < 3; round += 1) {
      for (const [i, cookie] of cookies.entries()) {
        const me = await get('/api/me', { Cookie: cookie });
        expect(me.status).toBe(200);
        expect(JSON.parse(me.body.toString())).toMatchObject({ username: i === 0 ? DEMO_MEMBER.username : 'frontdoor2' });
        expect(header(me, 'x-cache-status')).toBe('');
      }
      // Without a session: no member's answer.
      expect((await get('/api/me')).status).toBe(401);
    }
  });

  it('a request with a session goes to the bff on a cacheable path, and its answer is not stored', async () => {
    const cookie = await signIn(DEMO_MEMBER.username, DEMO_MEMBER.password);
    const path = '/api/videos-by-date/2';
    const signedIn = await get(path, { Cookie: cookie });
    expect(signedIn.status).toBe(200);
    expect(header(signedIn, 'x-cache-status')).toBe('BYPASS');
    expect(header(await get(path, { Cookie: cookie }), 'x-cache-status')).toBe('BYPASS');
    // Nothing was stored for a visitor to get.
    expect(header(await get(path), 'x-cache-status')).toBe('MISS');
  });
});

describe('a cold-cache stampede', () => {
  it('1,000 concurrent requests for one uncached page reach the bff once', async () => {
    const path = '/api/search/a';
    expect(bffRequests(path)).toBe(0);
    const answers = await Promise.all(Array.from({ length: 1000 }, () => get(path)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const bodies = new Set(answers.map((a) => a.body.toString()));
    expect(bodies.size).toBe(1);
    expect(await settledBffRequests(path)).toBe(1);
  });
});
