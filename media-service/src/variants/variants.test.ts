import { crc32 } from 'node:zlib';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkPool, PoolFullError } from './pool';
import { jpeg, put, raw, startFixture } from '../test/helpers';
import type { Fixture } from '../test/helpers';

/** A valid PNG header claiming width x height: a decompression bomb as far as the decoder can tell. */
function pngClaiming(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', Buffer.alloc(0)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const THUMB = '/members/photosthumbs/set-1/large.jpg';

describe('thumbnail variants', () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await startFixture({ VARIANT_CONCURRENCY: '1', VARIANT_QUEUE_MAX: '0' });
  });
  afterAll(() => fx.stop());

  it.each([
    ['image/avif,image/webp,*/*', 'image/avif', 'heif'],
    ['image/webp,*/*;q=0.8', 'image/webp', 'webp'],
    ['image/avif;q=0,image/webp', 'image/webp', 'webp'],
    ['*/*', 'image/jpeg', 'jpeg'],
    ['', 'image/jpeg', 'jpeg'],
  ])('Accept %j -> %s, resized, Vary: Accept', async (accept, type, format) => {
    const res = await raw(fx.media.url, `${THUMB}?w=320`, accept ? { Accept: accept } : {});
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(type);
    expect(res.headers.vary).toBe('Accept');
    expect(res.headers['cache-control']).toBe('public, max-age=300, s-maxage=5');
    const meta = await sharp(res.body).metadata();
    expect(meta.format).toBe(format);
    expect(meta.width).toBe(320);
  });

  it.each(['0', '100', '321', '2000', 'abc', '320px', '-320', ''])('w=%s is refused with 400', async (w) => {
    const res = await raw(fx.media.url, `${THUMB}?w=${w}`);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body.toString()).error.code).toBe('bad_parameter');
  });

  it('w on a video is refused', async () => {
    expect((await raw(fx.media.url, '/members/video/clip-1/clip-1001.mp4?w=320')).status).toBe(400);
  });

  it('never enlarges, strips metadata and applies EXIF rotation', async () => {
    const rotated = await sharp({ create: { width: 600, height: 400, channels: 3, background: 'red' } })
      .jpeg()
      .withMetadata({ orientation: 6, exif: { IFD0: { Copyright: 'someone' } } })
      .toBuffer();
    await put(fx.root, 'photosthumbs/set-2/rotated.jpg', rotated);
    const big = await raw(fx.media.url, '/members/photosthumbs/set-2/rotated.jpg?w=1280');
    const meta = await sharp(big.body).metadata();
    expect([meta.width, meta.height]).toEqual([400, 600]);
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
  });

  it('64 simultaneous requests for one new variant run sharp once, and the result is on disk', async () => {
    await put(fx.root, 'photosthumbs/set-3/large.jpg', await jpeg(1600, 1200));
    const before = fx.media.variants.renders;
    const answers = await Promise.all(
      Array.from({ length: 64 }, () => raw(fx.media.url, '/members/photosthumbs/set-3/large.jpg?w=640', { Accept: 'image/webp' })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(64).fill(200));
    expect(new Set(answers.map((a) => a.headers.etag)).size).toBe(1);
    expect(fx.media.variants.renders - before).toBe(1);
    const shards = await readdir(join(fx.dir, 'variants'));
    expect(shards.length).toBeGreaterThan(0);
    const again = await raw(fx.media.url, '/members/photosthumbs/set-3/large.jpg?w=640', {
      Accept: 'image/webp',
      'If-None-Match': String(answers[0]?.headers.etag),
    });
    expect(again.status).toBe(304);
  });

  it('a changed source makes a new variant', async () => {
    const first = await raw(fx.media.url, '/members/freephotos/set-1/free.jpg?w=160');
    await put(fx.root, 'freephotos/set-1/free.jpg', await jpeg(900, 300));
    const second = await raw(fx.media.url, '/members/freephotos/set-1/free.jpg?w=160');
    expect(second.headers.etag).not.toBe(first.headers.etag);
    expect((await sharp(second.body).metadata()).height).toBe(53);
  });

  it('refuses a decompression bomb with 422', async () => {
    await put(fx.root, 'photosthumbs/bomb/large.jpg', pngClaiming(50_000, 50_000));
    const res = await raw(fx.media.url, '/members/photosthumbs/bomb/large.jpg?w=320');
    expect(res.status).toBe(422);
    expect(JSON.parse(res.body.toString()).error.code).toBe('unprocessable_image');
  });

  it('refuses a truncated JPEG with 422, and keeps serving', async () => {
    const whole = await jpeg(1200, 900);
    await put(fx.root, 'photosthumbs/broken/large.jpg', whole.subarray(0, Math.floor(whole.length / 2)));
    expect((await raw(fx.media.url, '/members/photosthumbs/broken/large.jpg?w=320')).status).toBe(422);
    expect((await raw(fx.media.url, '/members/photosthumbs/not-an-image/large.jpg?w=320')).status).toBe(404);
    await put(fx.root, 'photosthumbs/svg/large.jpg', '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
    expect((await raw(fx.media.url, '/members/photosthumbs/svg/large.jpg?w=320')).status).toBe(422);
    expect((await raw(fx.media.url, `${THUMB}?w=480`)).status).toBe(200);
  });

  it('answers 503 with Retry-After when the pool and its queue are full', async () => {
    await put(fx.root, 'photosthumbs/huge/large.jpg', await jpeg(6000, 4000));
    const slow = raw(fx.media.url, '/members/photosthumbs/huge/large.jpg?w=1280', { Accept: 'image/avif' });
    while (fx.media.variants.load.running === 0) await new Promise((r) => setTimeout(r, 1));
    const refused = await raw(fx.media.url, '/members/photosthumbs/huge/large.jpg?w=960', { Accept: 'image/avif' });
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('2');
    expect((await slow).status).toBe(200);
  });
});

describe('a full variant disk', () => {
  it('serves the original when free space is below the threshold', async () => {
    const fx = await startFixture({ VARIANT_MIN_FREE_BYTES: String(Number.MAX_SAFE_INTEGER) });
    try {
      const res = await raw(fx.media.url, `${THUMB}?w=320`);
      expect(res.status).toBe(200);
      expect((await sharp(res.body).metadata()).width).toBe(800);
      expect(fx.media.variants.renders).toBe(0);
    } finally {
      await fx.stop();
    }
  });

  it('serves the original when a write fails with ENOSPC', async () => {
    const full = Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    const fx = await startFixture({}, { variantWrite: () => Promise.reject(full) });
    try {
      const res = await raw(fx.media.url, `${THUMB}?w=320`);
      expect(res.status).toBe(200);
      expect((await sharp(res.body).metadata()).width).toBe(800);
    } finally {
      await fx.stop();
    }
  });
});

describe('WorkPool', () => {
  it('runs up to its concurrency, queues up to its cap, refuses beyond', async () => {
    const pool = new WorkPool(1, 1);
    let release = () => undefined as void;
    const first = pool.run(() => new Promise<string>((r) => (release = () => r('a'))));
    const second = pool.run(async () => 'b');
    await expect(pool.run(async () => 'c')).rejects.toBeInstanceOf(PoolFullError);
    expect(pool.load).toEqual({ running: 1, waiting: 1 });
    release();
    expect(await Promise.all([first, second])).toEqual(['a', 'b']);
  });
});
