import { mkdtemp, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalOriginals, TooManyObjects, type Originals } from '@media-site/storage/originals';
import { S3Originals } from '@media-site/storage/s3';
import type { TestS3 } from '@media-site/storage/testing-s3';
import { jpeg, put, RANGE_DATA, raw, startFixture, TEST_KEYS, type Fixture } from '../test/helpers';
import { startTempMedia } from '../testing';
import { MTIME, signed, startS3Media, stopS3Media, type S3Media } from '../test/s3-fixture';

// A port no other test file uses, as test files run in parallel; the ingest S3 test uses the next one.
// Fixed ports of test files sit in 32000-32767: above the random ports test stacks take (20000-31999)
// and below Linux's ephemeral range, where any outgoing connection may hold a port at any moment.
const S3_PORT = 32100;
const BIG = Buffer.from(Array.from({ length: 8 * 1024 * 1024 }, (_, i) => (i * 13 + 5) % 251));

let media: S3Media | undefined;
let s3: TestS3;
let store: S3Originals;
let fx: Fixture;
let source: string;

/** Follows a redirect by hand: the Location must be an absolute URL on the bucket's endpoint. */
function follow(location: string, headers: Record<string, string> = {}, method = 'GET') {
  const url = new URL(location);
  return raw(url.origin, url.pathname + url.search, headers, method);
}

beforeAll(async () => {
  const image = await jpeg(800, 600);
  const originals = {
    'freephotos/range/data.bin': RANGE_DATA,
    'photos/range/data.bin': RANGE_DATA,
    'freephotos/set-1/free.jpg': image,
    'photos/set-1/full.jpg': image,
    'video/clip-1/clip-1001.mp4': RANGE_DATA,
    'photos/set-2/big.bin': BIG,
  };
  // A thumbnail on the local tree only: with STORAGE=s3 the bucket is the one source (s3-families.test.ts).
  media = await startS3Media(S3_PORT, originals, async (root) => {
    await put(root, 'photosthumbs/set-1/large.jpg', image);
  });
  ({ s3, store, fx, source } = media);
}, 60_000);

afterAll(() => stopS3Media(media ?? {}));

describe('STORAGE=s3: originals from an S3-compatible bucket', () => {
  it('uploads keep size and mtime; a second put of the same file is a no-op', async () => {
    expect(await store.head('freephotos/range/data.bin')).toEqual({
      relative: 'freephotos/range/data.bin',
      size: 1000,
      mtimeMs: MTIME.getTime(),
    });
    const file = join(source, 'freephotos_range_data.bin');
    expect(await store.put('freephotos/range/data.bin', file)).toBe('same');
    expect(await store.head('freephotos/nothing/here.bin')).toBeNull();
  });

  it('both backends behind one interface: put, head, a range read, a whole read', async () => {
    const root = await mkdtemp(join(tmpdir(), 'local-originals-'));
    try {
      const file = join(source, 'freephotos_range_data.bin');
      const local = new LocalOriginals(root);
      expect(await local.put('freephotos/range/data.bin', file)).toBe('placed');
      expect(await local.put('freephotos/range/data.bin', file)).toBe('same');
      for (const backend of [local, store] as Originals[]) {
        expect(await backend.head('freephotos/range/data.bin')).toMatchObject({ size: 1000, mtimeMs: MTIME.getTime() });
        expect(await backend.head('freephotos/range/none.bin')).toBeNull();
        const chunks: Buffer[] = [];
        for await (const c of backend.read('freephotos/range/data.bin', { start: 10, end: 19 })) chunks.push(c as Buffer);
        expect(Buffer.concat(chunks).equals(RANGE_DATA.subarray(10, 20))).toBe(true);
        expect((await backend.readAll('freephotos/range/data.bin')).equals(RANGE_DATA)).toBe(true);
        const listed = await backend.list('freephotos/range/');
        expect(listed.map((o) => [o.relative, o.size])).toEqual([['freephotos/range/data.bin', 1000]]);
        expect(await backend.list('freephotos/none/')).toEqual([]);
      }
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it("a members' original: 302 to a presigned URL; the bucket answers Range with the right bytes", async () => {
    const res = await raw(fx.media.url, signed('/members/photos/range/data.bin'), { Range: 'bytes=100-199' });
    expect(res.status).toBe(302);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const location = String(res.headers.location);
    expect(location.startsWith(`${s3.endpoint}/${s3.bucket}/photos/range/data.bin?`)).toBe(true);
    expect(location).toMatch(/X-Amz-Expires=60&/);
    const part = await follow(location, { Range: 'bytes=100-199' });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe('bytes 100-199/1000');
    expect(part.body.equals(RANGE_DATA.subarray(100, 200))).toBe(true);
    const whole = await follow(location);
    expect(whole.status).toBe(200);
    expect(whole.body.equals(RANGE_DATA)).toBe(true);
  });

  it('members: no credential 401 (no redirect); a signed URL redirects; the bucket answers the Range', async () => {
    expect((await raw(fx.media.url, '/members/photos/set-1/full.jpg')).status).toBe(401);
    const res = await raw(fx.media.url, signed('/members/photos/set-1/full.jpg'));
    expect(res.status).toBe(302);
    const part = await follow(String(res.headers.location), { Range: 'bytes=0-1' });
    expect(part.status).toBe(206);
    expect(part.body.toString('hex')).toBe('ffd8');
    expect(part.headers['content-type']).toBe('image/jpeg');
    expect(part.headers['cache-control']).toBe('private, no-cache');
  });

  it('a download carries its name in the presigned URL (response-content-disposition)', async () => {
    const res = await raw(fx.media.url, signed('/members/video/clip-1/clip-1001.mp4'));
    expect(res.status).toBe(302);
    const location = new URL(String(res.headers.location));
    expect(location.searchParams.get('response-content-disposition')).toBe(
      `attachment; filename="clip-1001.mp4"; filename*=UTF-8''clip-1001.mp4`,
    );
    expect(location.searchParams.get('response-content-type')).toBe('video/mp4');
    // Followed to the bucket in s3-families.test.ts (s3rver's query canonicalisation corrected in storage/src/testing-s3.ts).
  });

  it('list: only the folder itself, every page of ListObjectsV2, and a bound on the number of keys', async () => {
    const file = join(source, 'freephotos_range_data.bin');
    for (const name of ['a.jpg', 'b.jpg', 'c.jpg', 'd.jpg', 'e.jpg', 'sub/f.jpg']) await store.put(`freephotos/paged/${name}`, file);
    const paged = new S3Originals(s3.settings);
    paged.listPageSize = 2;
    try {
      const listed = await paged.list('freephotos/paged/');
      expect(listed.map((o) => o.relative).sort()).toEqual(['a', 'b', 'c', 'd', 'e'].map((n) => `freephotos/paged/${n}.jpg`));
      await expect(paged.list('freephotos/paged/', 4)).rejects.toBeInstanceOf(TooManyObjects);
    } finally {
      paged.close();
    }
  });

  it('a presigned URL is bound to its object and method: another key or a tampered signature is refused', async () => {
    const location = String((await raw(fx.media.url, signed('/members/photos/range/data.bin'))).headers.location);
    const other = location.replace('/photos/range/data.bin?', '/freephotos/set-1/free.jpg?');
    expect((await follow(other)).status).toBe(403);
    expect((await follow(location.replace(/Signature=([0-9a-f])/, (_, c: string) => `Signature=${c === '0' ? '1' : '0'}`))).status).toBe(
      403,
    );
  });

  it('HEAD redirects to a HEAD-signed URL', async () => {
    const res = await raw(fx.media.url, signed('/members/photos/range/data.bin'), {}, 'HEAD');
    expect(res.status).toBe(302);
    const head = await follow(String(res.headers.location), {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe('1000');
  });

  it('a missing object is our JSON 404, before any redirect; a set ZIP is built from the bucket', async () => {
    const res = await raw(fx.media.url, '/members/freephotos/range/missing.bin');
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body.toString()).error.code).toBe('not_found');
    const zip = await raw(fx.media.url, signed('/members/photos/set-1/set-1.zip'));
    expect(zip.status).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
  });

  it('a taken-down folder is 410 without asking storage', async () => {
    fx.media.takedowns.replace(['freephotos/range/']);
    try {
      expect((await raw(fx.media.url, '/members/freephotos/range/data.bin')).status).toBe(410);
    } finally {
      fx.media.takedowns.replace([]);
    }
  });

  it('a file only on the local tree is not served: the bucket is the one source of every family', async () => {
    const res = await raw(fx.media.url, '/members/photosthumbs/set-1/large.jpg');
    expect(res.status).toBe(404);
  });

  it('variants read the original through storage, with the ETag a local tree with the same file gives', async () => {
    const res = await raw(fx.media.url, '/members/freephotos/set-1/free.jpg?w=320', { Accept: 'image/jpeg' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.body.subarray(0, 2).toString('hex')).toBe('ffd8');
    const local = await startFixture();
    try {
      await utimes(join(local.root, 'freephotos/set-1/free.jpg'), MTIME, MTIME);
      const there = await raw(local.media.url, '/members/freephotos/set-1/free.jpg?w=320', { Accept: 'image/jpeg' });
      expect(there.status).toBe(200);
      expect(res.headers.etag).toBe(there.headers.etag);
    } finally {
      await local.stop();
    }
    // Members' photos too, with a credential.
    const member = await raw(fx.media.url, `${signed('/members/photos/set-1/full.jpg')}&w=160`, { Accept: 'image/webp' });
    expect(member.status).toBe(200);
    expect(member.headers['content-type']).toBe('image/webp');
  });

  it('S3_PUBLIC_ENDPOINT: presigned URLs name the host clients use, and verify there', async () => {
    const port = new URL(s3.endpoint).port;
    const pub = await startTempMedia({ MEDIA_TOKEN_KEYS: TEST_KEYS, ...s3.env, S3_PUBLIC_ENDPOINT: `http://localhost:${port}` });
    try {
      const res = await raw(pub.media.url, signed('/members/photos/range/data.bin'));
      expect(res.status).toBe(302);
      const location = String(res.headers.location);
      expect(location.startsWith(`http://localhost:${port}/${s3.bucket}/`)).toBe(true);
      const part = await follow(location.replace('//localhost:', '//127.0.0.1:'), { Range: 'bytes=0-9', Host: `localhost:${port}` });
      expect(part.status).toBe(206);
      expect(part.body.equals(RANGE_DATA.subarray(0, 10))).toBe(true);
    } finally {
      await pub.stop();
    }
  });

  it('storage not answering: 503 storage_unavailable with Retry-After, not a 500', async () => {
    const down = await startTempMedia({ MEDIA_TOKEN_KEYS: TEST_KEYS, ...s3.env, S3_ENDPOINT: 'http://127.0.0.1:32199' });
    try {
      const res = await raw(down.media.url, '/members/freephotos/range/data.bin');
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('2');
      expect(JSON.parse(res.body.toString()).error.code).toBe('storage_unavailable');
      // Reported by /readyz, which stays ready (every replica shares the bucket: failing them all would turn 503s into 502s).
      const ready = await raw(down.media.url, '/readyz');
      expect(ready.status).toBe(200);
      expect(JSON.parse(ready.body.toString()).storage).toEqual({ kind: 's3', reachable: false });
      expect(JSON.parse((await raw(fx.media.url, '/readyz')).body.toString()).storage).toEqual({ kind: 's3', reachable: true });
    } finally {
      await down.stop();
    }
  });

  it('TTFB of a 1 MiB Range: local tree (direct) vs S3 (302 + bucket), logged', async () => {
    const local = await startTempMedia({ MEDIA_TOKEN_KEYS: TEST_KEYS }, {}, async (root) => {
      await put(root, 'photos/set-2/big.bin', BIG);
    });
    const url = signed('/members/photos/set-2/big.bin');
    const range = { Range: 'bytes=4194304-5242879' };
    const ttfb = (base: string, path: string, headers: Record<string, string>) =>
      new Promise<{ ms: number; status: number; location?: string }>((resolve, reject) => {
        const started = performance.now();
        const { hostname, port } = new URL(base);
        const req = request({ host: hostname, port, path, headers, agent: false }, (res) => {
          res.once('data', () => undefined);
          res.once('readable', () => undefined);
          const ms = performance.now() - started;
          res.resume();
          res.on('end', () => resolve({ ms, status: res.statusCode ?? 0, location: res.headers.location }));
        });
        req.on('error', reject);
        req.end();
      });
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const runs = 25;
    const localMs: number[] = [];
    const redirectMs: number[] = [];
    const s3Ms: number[] = [];
    const bucketMs: number[] = [];
    try {
      for (let i = 0; i < runs; i++) {
        const l = await ttfb(local.media.url, url, range);
        expect(l.status).toBe(206);
        localMs.push(l.ms);
        const r = await ttfb(fx.media.url, url, range);
        expect(r.status).toBe(302);
        const target = new URL(r.location!);
        const o = await ttfb(target.origin, target.pathname + target.search, range);
        expect(o.status).toBe(206);
        redirectMs.push(r.ms);
        bucketMs.push(o.ms);
        s3Ms.push(r.ms + o.ms);
      }
    } finally {
      await local.stop();
    }
    console.log(
      `[s3-range-ttfb] 1 MiB range of 8 MiB, median of ${runs}: local direct ${median(localMs).toFixed(2)} ms; ` +
        `s3 302 (HeadObject + presign) ${median(redirectMs).toFixed(2)} ms; bucket alone ${median(bucketMs).toFixed(2)} ms; ` +
        `s3 302 + bucket first byte ${median(s3Ms).toFixed(2)} ms`,
    );
  }, 60_000);
});
