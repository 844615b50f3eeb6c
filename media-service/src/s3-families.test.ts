import { readdir, utimes } from 'node:fs/promises';
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Family } from '@media-site/storage/paths';
import { FAMILIES } from '@media-site/storage/paths';
import { ANSWER_DEADLINE_MS } from '@media-site/storage/s3';
import type { TestS3 } from '@media-site/storage/testing-s3';
import { jpeg, putAll, RANGE_DATA, raw, TEST_KEYS, type Fixture } from './test/helpers';
import { startTempMedia } from './testing';
import { BUCKET_STREAM_MAX } from './members/representation';
import { MTIME, signed, startS3Media, stopS3Media, type S3Media } from './test/s3-fixture';

// With STORAGE=s3 every family is in the bucket, under its media path, and the media
// service answers from it with an EMPTY MEDIA_ROOT (nothing a second host would need is local).
const BIG = Buffer.from(Array.from({ length: BUCKET_STREAM_MAX + 4096 }, (_, i) => (i * 31 + 11) % 253));
const SET: Record<string, Buffer> = {
  '01.jpg': RANGE_DATA,
  '02.jpg': Buffer.alloc(5000, 7),
  '10 é.png': Buffer.from('not really a png'),
};
const ZIP = '/members/photos/set-z/set-z.zip';

let media: S3Media | undefined;
let s3: TestS3;
let fx: Fixture;
let objects: Record<string, Buffer>;

function follow(location: string, headers: Record<string, string> = {}, method = 'GET') {
  const url = new URL(location);
  return raw(url.origin, url.pathname + url.search, headers, method);
}

/** One file of each family, and how the service answers it from the bucket. */
const EVERY_FAMILY: Record<Family, { relative: string; url: string; how: 'stream' | 'redirect' }> = {
  photosthumbs: { relative: 'photosthumbs/set-z/large.jpg', url: '/members/photosthumbs/set-z/large.jpg', how: 'stream' },
  videothumbs: { relative: 'videothumbs/clip-1/clip-1_02.jpg', url: '/members/videothumbs/clip-1/clip-1_02.jpg', how: 'stream' },
  vodthumbs: { relative: 'vodthumbs/show-1/show-1_02.jpg', url: '/members/vodthumbs/show-1/show-1_02.jpg', how: 'stream' },
  freephotos: { relative: 'freephotos/set-f/free.jpg', url: '/members/freephotos/set-f/free.jpg', how: 'stream' },
  photos: { relative: 'photos/set-z/01.jpg', url: signed('/members/photos/set-z/01.jpg'), how: 'redirect' },
  video: { relative: 'video/clip-1/Clip_A1_HD001.mp4', url: signed('/members/video/clip-1/Clip_A1_HD001.mp4'), how: 'redirect' },
  vod: { relative: 'vod/show-1/show-1.mp4', url: signed('/members/vod/show-1/show-1.mp4'), how: 'redirect' },
  videorenditions: {
    relative: 'videorenditions/clip-1/720p.mp4',
    url: signed('/members/videorenditions/clip-1/720p.mp4'),
    how: 'redirect',
  },
  vodrenditions: { relative: 'vodrenditions/show-1/480p.mp4', url: signed('/members/vodrenditions/show-1/480p.mp4'), how: 'redirect' },
  videopreviews: { relative: 'videopreviews/clip-1/sprite.vtt', url: '/members/videopreviews/clip-1/sprite.vtt', how: 'stream' },
  vodpreviews: { relative: 'vodpreviews/show-1/poster.jpg', url: '/members/vodpreviews/show-1/poster.jpg', how: 'stream' },
};

beforeAll(async () => {
  const image = await jpeg(800, 600);
  objects = {
    'photosthumbs/set-z/large.jpg': image,
    'videothumbs/clip-1/clip-1_02.jpg': image,
    'vodthumbs/show-1/show-1_02.jpg': image,
    'freephotos/set-f/free.jpg': image,
    'video/clip-1/Clip_A1_HD001.mp4': RANGE_DATA,
    'vod/show-1/show-1.mp4': RANGE_DATA,
    'videorenditions/clip-1/720p.mp4': RANGE_DATA,
    'vodrenditions/show-1/480p.mp4': RANGE_DATA,
    'videopreviews/clip-1/sprite.vtt': Buffer.from('WEBVTT\n\n00:00.000 --> 00:05.000\nsprite.jpg#xywh=0,0,160,90\n'),
    'videopreviews/clip-1/trailer.mp4': BIG,
    'vodpreviews/show-1/poster.jpg': image,
    'photos/set-z/notes.txt': Buffer.from('left out'),
    'photos/set-z/.hidden.jpg': Buffer.from('left out'),
    ...Object.fromEntries(Object.entries(SET).map(([name, data]) => [`photos/set-z/${name}`, data])),
  };
  // Nothing on the local tree.
  media = await startS3Media(0, objects, async () => {});
  ({ s3, fx } = media);
}, 60_000);

afterAll(async () => {
  expect(await readdir(fx.root)).toEqual([]);
  await stopS3Media(media ?? {});
});

describe('STORAGE=s3: every family from the bucket, MEDIA_ROOT empty', () => {
  it('covers every family of paths.ts', () => {
    expect(Object.keys(EVERY_FAMILY).sort()).toEqual([...FAMILIES].sort());
  });

  for (const family of FAMILIES) {
    it(`${family}: ${EVERY_FAMILY[family].how === 'stream' ? 'streamed with Range and validators' : '302 to the bucket, which answers the Range'}`, async () => {
      const { relative, url, how } = EVERY_FAMILY[family];
      const data = objects[relative]!;
      const res = await raw(fx.media.url, url, { Range: 'bytes=2-9' });
      if (how === 'stream') {
        expect(res.status).toBe(206);
        expect(res.headers['content-range']).toBe(`bytes 2-9/${data.length}`);
        expect(res.body.equals(data.subarray(2, 10))).toBe(true);
        // The local tree's ETag for the same file (size, kept mtime): If-Range and 304s work across hosts and backends.
        const etag = `"${Math.floor(MTIME.getTime() / 1000).toString(16)}-${data.length.toString(16)}"`;
        expect(res.headers.etag).toBe(etag);
        expect((await raw(fx.media.url, url, { 'If-None-Match': etag })).status).toBe(304);
        expect((await raw(fx.media.url, url, { Range: 'bytes=2-9', 'If-Range': '"other"' })).status).toBe(200);
        const head = await raw(fx.media.url, url, {}, 'HEAD');
        expect(head.status).toBe(200);
        expect(head.headers['content-length']).toBe(String(data.length));
        expect(head.body.length).toBe(0);
      } else {
        expect(res.status).toBe(302);
        expect(res.headers['cache-control']).toBe('private, no-store');
        const location = String(res.headers.location);
        expect(location.startsWith(`${s3.endpoint}/${s3.bucket}/${relative}?`)).toBe(true);
        const part = await follow(location, { Range: 'bytes=2-9' });
        expect(part.status).toBe(206);
        expect(part.body.equals(data.subarray(2, 10))).toBe(true);
      }
    });
  }

  it('a public file over the stream limit is a redirect, unless nginx asks to cache it (X-Front-Cache: store)', async () => {
    const url = '/members/videopreviews/clip-1/trailer.mp4';
    const res = await raw(fx.media.url, url);
    expect(res.status).toBe(302);
    expect(new URL(String(res.headers.location)).searchParams.get('response-cache-control')).toBe('public, max-age=300, s-maxage=5');
    const cached = await raw(fx.media.url, url, { 'X-Front-Cache': 'store' });
    expect(cached.status).toBe(200);
    expect(cached.body.equals(BIG)).toBe(true);
    expect(cached.headers['cache-control']).toBe('public, max-age=300, s-maxage=5');
  });

  it('variants (?w=) are made from the bucket object, thumbnails as originals', async () => {
    const thumb = await raw(fx.media.url, '/members/photosthumbs/set-z/large.jpg?w=160', { Accept: 'image/webp' });
    expect(thumb.status).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/webp');
    const member = await raw(fx.media.url, `${signed('/members/photos/set-z/01.jpg')}&w=160`);
    // 01.jpg is not an image: the bucket object was read and refused by sharp, not by the path.
    expect(member.status).toBe(422);
    expect((await raw(fx.media.url, '/members/vodpreviews/show-1/poster.jpg?w=160')).status).toBe(400);
  });

  it('members: no credential is 401 for every members family, before the bucket is asked', async () => {
    for (const family of FAMILIES) {
      const { how, relative } = EVERY_FAMILY[family];
      if (how === 'redirect') expect((await raw(fx.media.url, `/members/${relative}`)).status, family).toBe(401);
    }
  });

  it('a takedown refuses every family (410), the set ZIP and the rendition download name included', async () => {
    fx.media.takedowns.replace([
      'photos/set-z/',
      'photosthumbs/set-z/',
      'freephotos/set-f/',
      'video/clip-1/',
      'videothumbs/clip-1/',
      'videorenditions/clip-1/',
      'videopreviews/clip-1/',
      'vod/show-1/',
      'vodthumbs/show-1/',
      'vodrenditions/show-1/',
      'vodpreviews/show-1/',
    ]);
    try {
      for (const family of FAMILIES) expect((await raw(fx.media.url, EVERY_FAMILY[family].url)).status, family).toBe(410);
      expect((await raw(fx.media.url, signed(ZIP))).status).toBe(410);
      expect((await raw(fx.media.url, signed('/members/videorenditions/clip-1/Clip_A1_HD001_720p.mp4'))).status).toBe(410);
    } finally {
      fx.media.takedowns.replace([]);
    }
  });

  it('a rendition download is its {label}.mp4 object, sent by the bucket as an attachment under the asked name (filename*)', async () => {
    const res = await raw(fx.media.url, signed('/members/videorenditions/clip-1/Clip_A1_HD001_720p.mp4'));
    expect(res.status).toBe(302);
    const location = String(res.headers.location);
    expect(location.startsWith(`${s3.endpoint}/${s3.bucket}/videorenditions/clip-1/720p.mp4?`)).toBe(true);
    const got = await follow(location, { Range: 'bytes=10-19' });
    expect(got.status).toBe(206);
    expect(got.body.equals(RANGE_DATA.subarray(10, 20))).toBe(true);
    expect(got.headers['content-disposition']).toBe(
      `attachment; filename="Clip_A1_HD001_720p.mp4"; filename*=UTF-8''Clip_A1_HD001_720p.mp4`,
    );
    expect(got.headers['content-type']).toBe('video/mp4');
  });

  it('S3 proof: a member video download end to end (302, presigned URL, attachment with filename*), then the URL expired is 403', async () => {
    const short = await startTempMedia({ MEDIA_TOKEN_KEYS: TEST_KEYS, ...s3.env, S3_PRESIGN_SECONDS: '5' });
    try {
      const res = await raw(short.media.url, signed('/members/video/clip-1/Clip_A1_HD001.mp4'));
      expect(res.status).toBe(302);
      const location = String(res.headers.location);
      expect(location).toMatch(/X-Amz-Expires=5&/);
      const got = await follow(location);
      expect(got.status).toBe(200);
      expect(got.body.equals(RANGE_DATA)).toBe(true);
      expect(got.headers['content-disposition']).toBe(`attachment; filename="Clip_A1_HD001.mp4"; filename*=UTF-8''Clip_A1_HD001.mp4`);
      expect(got.headers['cache-control']).toBe('private, no-cache');
      await new Promise((resolve) => setTimeout(resolve, 6500));
      const expired = await follow(location);
      expect(expired.status).toBe(403);
      expect(expired.body.toString()).toMatch(/AccessDenied/);
      // The stable /members/ URL is checked again and signs a fresh one.
      const again = await raw(short.media.url, signed('/members/video/clip-1/Clip_A1_HD001.mp4'));
      expect((await follow(String(again.headers.location), { Range: 'bytes=0-0' })).status).toBe(206);
    } finally {
      await short.stop();
    }
  }, 30_000);

  it('the set ZIP is streamed from the bucket, byte for byte the local tree ZIP of the same set, with Range and If-Range', async () => {
    const fromBucket = await raw(fx.media.url, signed(ZIP));
    expect(fromBucket.status).toBe(200);
    expect(fromBucket.headers['content-type']).toBe('application/zip');
    expect(fromBucket.headers['content-disposition']).toMatch(/^attachment; filename="set-z.zip"/);
    const local = await startTempMedia({ MEDIA_TOKEN_KEYS: TEST_KEYS }, {}, async (root) => {
      await putAll(root, Object.fromEntries(Object.entries(objects).filter(([k]) => k.startsWith('photos/set-z/'))));
      for (const name of await readdir(join(root, 'photos/set-z'))) await utimes(join(root, 'photos/set-z', name), MTIME, MTIME);
    });
    try {
      const fromTree = await raw(local.media.url, signed(ZIP));
      expect(fromTree.status).toBe(200);
      expect(fromBucket.body.equals(fromTree.body)).toBe(true);
      expect(fromBucket.headers.etag).toBe(fromTree.headers.etag);
      expect(fromBucket.headers['last-modified']).toBe(fromTree.headers['last-modified']);
    } finally {
      await local.stop();
    }
    const etag = String(fromBucket.headers.etag);
    const size = fromBucket.body.length;
    for (const start of [0, 29, 100, 1050, size - 30, size - 1]) {
      const part = await raw(fx.media.url, signed(ZIP), { Range: `bytes=${start}-`, 'If-Range': etag });
      expect(part.status, `from ${start}`).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes ${start}-${size - 1}/${size}`);
      expect(part.body.equals(fromBucket.body.subarray(start))).toBe(true);
    }
    const middle = await raw(fx.media.url, signed(ZIP), { Range: 'bytes=40-1100' });
    expect(middle.body.equals(fromBucket.body.subarray(40, 1101))).toBe(true);
    expect((await raw(fx.media.url, signed('/members/photos/none/none.zip'))).status).toBe(404);
  });

  it('a bucket that accepts connections and never answers: 503 after the answer deadline, not a hang', async () => {
    const sockets = new Set<Socket>();
    const stalled = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
    const { port } = stalled.address() as AddressInfo;
    const hung = await startTempMedia({ MEDIA_TOKEN_KEYS: TEST_KEYS, ...s3.env, S3_ENDPOINT: `http://127.0.0.1:${port}` });
    try {
      const started = performance.now();
      const answers = await Promise.all(
        [EVERY_FAMILY.photosthumbs.url, EVERY_FAMILY.video.url, signed(ZIP)].map((url) => raw(hung.media.url, url)),
      );
      const ms = performance.now() - started;
      for (const res of answers) {
        expect(res.status).toBe(503);
        expect(res.headers['retry-after']).toBe('2');
      }
      expect(ms).toBeGreaterThanOrEqual(ANSWER_DEADLINE_MS - 100);
      expect(ms).toBeLessThan(ANSWER_DEADLINE_MS + 4000);
    } finally {
      await hung.stop();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => stalled.close(resolve));
    }
  }, 30_000);

  it('a bucket that answers HeadObject and then fails the GetObject: 503, not a 200 cut short', async () => {
    // A stand-in in front of s3rver that passes HEAD on and answers every GET 500 (as S3 does when
    // it fails internally); the Host header is passed as is, so SigV4 still verifies at s3rver.
    const target = new URL(s3.endpoint);
    const flaky = createHttpServer((req, res) => {
      if (req.method !== 'HEAD') {
        req.resume();
        res.writeHead(500, { 'Content-Type': 'application/xml' }).end('<Error><Code>InternalError</Code></Error>');
        return;
      }
      const upstream = httpRequest(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => flaky.listen(0, '127.0.0.1', resolve));
    const { port } = flaky.address() as AddressInfo;
    const half = await startTempMedia({ MEDIA_TOKEN_KEYS: TEST_KEYS, ...s3.env, S3_ENDPOINT: `http://127.0.0.1:${port}` });
    try {
      const res = await raw(half.media.url, EVERY_FAMILY.photosthumbs.url, { Range: 'bytes=0-9' });
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('2');
      expect(JSON.parse(res.body.toString()).error.code).toBe('storage_unavailable');
      // A redirect needs only the HeadObject; the set ZIP's listing is a GET.
      expect((await raw(half.media.url, EVERY_FAMILY.video.url)).status).toBe(302);
      expect((await raw(half.media.url, signed(ZIP))).status).toBe(503);
    } finally {
      await half.stop();
      flaky.closeAllConnections();
      await new Promise((resolve) => flaky.close(resolve));
    }
  }, 30_000);

  it('the bucket stopped: 503 storage_unavailable with Retry-After for every family and the set ZIP, never a 500 or a hang', async () => {
    await s3.stop();
    media = { ...media!, s3: undefined } as unknown as S3Media;
    for (const family of FAMILIES) {
      const started = performance.now();
      const res = await raw(fx.media.url, EVERY_FAMILY[family].url);
      expect(res.status, family).toBe(503);
      expect(res.headers['retry-after'], family).toBe('2');
      expect(JSON.parse(res.body.toString()).error.code, family).toBe('storage_unavailable');
      expect(performance.now() - started, family).toBeLessThan(6000);
    }
    const zip = await raw(fx.media.url, signed(ZIP));
    expect(zip.status).toBe(503);
    expect(zip.headers['retry-after']).toBe('2');
    const ready = await raw(fx.media.url, '/readyz');
    expect(JSON.parse(ready.body.toString()).storage).toEqual({ kind: 's3', reachable: false });
  }, 60_000);
});
