import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raw, type RawResponse } from '@media-site/media-service/testing/http';
import { countRequests, settledCount } from '../src/access-lines';
import { catalogCli } from '../src/catalog-cli';
import { startStack, type Stack } from '../src/stack';

// The full-size public files (the `thumbnail` URL of every API answer, free photos) come
// from nginx's thumbnail cache like their ?w= variants (nginx/nginx.conf.template, public families),
// not from a media-service round trip on every request. Real nginx with the repo's config.
const BOUND_MS = 15_000; // the takedown bound of takedown-frontdoor.test.ts
const ACCEPT = { Accept: 'image/webp,*/*' };

let stack: Stack;
const mediaLines: string[] = [];

beforeAll(async () => {
  // One access line per request the media service sees: counted below.
  stack = await startStack({ frontDoor: 'nginx', accessLog: { service: 'media', lines: mediaLines } });
});
afterAll(async () => {
  await stack?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const get = (path: string, headers: Record<string, string> = {}) => raw(stack.url, path, { ...ACCEPT, ...headers });
const header = (res: RawResponse, name: string) => res.headers[name];

/** The media service's access lines for this path. */
const mediaRequests = (path: string) => countRequests(mediaLines, 'path', path);
/** Access lines may be written in batches: wait until the count stops moving. */
const settled = (path: string) => settledCount(() => mediaRequests(path));

/** The full-size `thumbnail` of one photo set in the API, e.g. /members/photosthumbs/<set>/large.jpg. */
async function publicOriginal(index: number): Promise<string> {
  const page = JSON.parse((await raw(stack.url, '/api/photos/1')).body.toString()) as Array<{ thumbnail: string }>;
  const url = page[index]?.thumbnail;
  if (!url) throw new Error(`no photo set #${index} on /api/photos/1`);
  const path = new URL(url, stack.url).pathname;
  expect(path).toMatch(/^\/members\/photosthumbs\/[^/]+\/[^/?]+$/);
  return path;
}

describe('public originals at the front door', () => {
  it('are served from nginx cache after the first request (one media-service request for many)', async () => {
    const path = await publicOriginal(0);
    const first = await get(path);
    expect(first.status).toBe(200);
    expect(header(first, 'x-accel-redirect')).toBeUndefined();
    for (let i = 0; i < 5; i += 1) {
      const again = await get(path);
      expect(again.status).toBe(200);
      expect(header(again, 'x-cache-status')).toBe('HIT');
      expect(again.body.equals(first.body)).toBe(true);
      // Validators and the browsers' Cache-Control pass through from the media service.
      expect(header(again, 'etag')).toBe(header(first, 'etag'));
      expect(header(again, 'last-modified')).toBe(header(first, 'last-modified'));
      expect(header(again, 'cache-control')).toBe('public, max-age=300, s-maxage=5');
    }
    expect(await settled(path)).toBe(1);
    // A browser's revalidation is answered by nginx from the entry too.
    const revalidated = await get(path, { 'If-None-Match': String(header(first, 'etag')) });
    expect(revalidated.status).toBe(304);
    expect(header(revalidated, 'x-cache-status')).toBe('HIT');
  });

  it('answer Range and If-Range from the cache exactly as the media service does', async () => {
    const path = await publicOriginal(1);
    expect((await get(path)).status).toBe(200);
    const direct = await raw(stack.mediaUrl, path, { ...ACCEPT, 'X-Front-Cache': 'store' });
    expect(direct.status).toBe(200);
    const etag = String(header(direct, 'etag'));
    const lastModified = String(header(direct, 'last-modified'));
    const size = direct.body.length;
    const cases: Array<Record<string, string>> = [
      { Range: 'bytes=0-4' },
      { Range: 'bytes=-5' },
      { Range: `bytes=${size - 10}-` },
      { Range: `bytes=5-${size + 100}` },
      { Range: `bytes=${size}-` },
      { Range: 'bytes=alpha' },
      { Range: 'bytes=0-4', 'If-Range': etag },
      { Range: 'bytes=0-4', 'If-Range': '"other"' },
      { Range: 'bytes=0-4', 'If-Range': lastModified },
      { Range: 'bytes=0-4', 'If-Range': 'Mon, 01 Jan 2001 00:00:00 GMT' },
      { 'If-None-Match': etag },
      { 'If-None-Match': '"other"' },
    ];
    for (const headers of cases) {
      const front = await get(path, headers);
      const service = await raw(stack.mediaUrl, path, { ...ACCEPT, 'X-Front-Cache': 'store', ...headers });
      const what = JSON.stringify(headers);
      // A 416 runs nginx's header filters twice (add_header ... always repeats): "HIT, HIT".
      expect(header(front, 'x-cache-status'), what).toMatch(/^HIT(, HIT)?$/);
      expect(front.status, what).toBe(service.status);
      expect(header(front, 'content-range'), what).toBe(header(service, 'content-range'));
      // A 416's body is nginx's own error page, as the /_protected/ path answered before: only the
      // status and Content-Range are the file's.
      if (front.status === 416) continue;
      for (const name of ['content-length', 'content-type', 'etag', 'last-modified']) {
        expect(header(front, name), `${what} ${name}`).toBe(header(service, name));
      }
      expect(front.body.equals(service.body), what).toBe(true);
    }
  });

  it('answer a Range request that finds nothing cached yet with the right part', async () => {
    const path = await publicOriginal(5);
    const service = await raw(stack.mediaUrl, path, { ...ACCEPT, 'X-Front-Cache': 'store', Range: 'bytes=10-19' });
    const front = await get(path, { Range: 'bytes=10-19' });
    expect(front.status).toBe(206);
    expect(header(front, 'x-cache-status')).toBe('MISS');
    expect(header(front, 'content-range')).toBe(header(service, 'content-range'));
    expect(front.body.equals(service.body)).toBe(true);
    // The whole file went into the cache (no Range upstream): the next one is a HIT.
    const whole = await get(path);
    expect(whole.status).toBe(200);
    expect(header(whole, 'x-cache-status')).toBe('HIT');
  });

  it('keeps a cached file apart from other spellings of its path', async () => {
    const path = await publicOriginal(6);
    const [, , family, set, file] = path.split('/');
    // nginx matches and keys on the normalized path, the media service reads the raw one: an odd
    // spelling it refuses (400) or misses under another key must not replace the file's entry.
    for (const spelling of [
      `/members/${family}/${set}%2F${file}`,
      `/members/${family}/${set}/${file}%3F`,
      `/members/${family}/x/%2e%2e/${set}/${file}`,
      `/members/${family}/${set}/./${file}`,
      `/members/${family}//${set}/${file}`,
    ]) {
      const odd = await get(spelling);
      expect(odd.status, spelling).not.toBe(500);
      const res = await get(path);
      expect(res.status, `${path} after ${spelling} (${odd.status})`).toBe(200);
    }
  });

  it('never caches a member family', async () => {
    const original = await publicOriginal(2);
    const member = original.replace('/members/photosthumbs/', '/members/photos/');
    const before = mediaRequests(member);
    for (let i = 0; i < 3; i += 1) {
      const res = await get(member, { 'X-Front-Cache': 'store' });
      expect(res.status).not.toBe(200);
      expect(header(res, 'x-cache-status')).toBeUndefined();
    }
    expect((await settled(member)) - before).toBe(3);
  });

  it('turns a cached original into 410 within the takedown bound, and a restore brings it back', async () => {
    const path = await publicOriginal(3);
    const set = path.split('/')[3]!;
    expect((await get(path)).status).toBe(200);
    expect(header(await get(path), 'x-cache-status')).toBe('HIT');

    const waitFor = async (want: number, since: number) => {
      let last = 0;
      while (Date.now() - since < BOUND_MS) {
        last = (await get(path)).status;
        if (last === want) return Date.now() - since;
        await sleep(200);
      }
      throw new Error(`${path} still answered ${last}, not ${want}, ${BOUND_MS} ms after the change`);
    };
    const down = Date.now();
    expect((await catalogCli(stack, 'takedown', `/photos/${set}`, '--by', 'ops', '--reason', 'original test')).code).toBe(0);
    const goneAfter = await waitFor(410, down);
    const back = Date.now();
    expect((await catalogCli(stack, 'restore', `/photos/${set}`, '--by', 'ops', '--reason', 'original test')).code).toBe(0);
    const backAfter = await waitFor(200, back);
    console.log(`public original: takedown -> 410 after ${goneAfter} ms; restore -> 200 after ${backAfter} ms`);
  });

  it('never serves a stale original when the media service is down', async () => {
    const path = await publicOriginal(4);
    expect((await get(path)).status).toBe(200);
    expect(header(await get(path), 'x-cache-status')).toBe('HIT');
    await stack.children.media.stop();
    await sleep(6_000); // past the entry's 5 s
    const res = await get(path);
    expect(res.status).toBeGreaterThanOrEqual(500);
  });
});
