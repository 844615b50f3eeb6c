import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signDownloadUrl } from '@media-site/contracts/token';
import { startNginx } from '../src/nginx';
import type { RunningNginx } from '../src/nginx';
import { keys, put, raw, startMediaFixture } from './media-fixture';
import type { MediaFixture } from './media-fixture';

const DATA = Buffer.from(Array.from({ length: 100_000 }, (_, i) => (i * 13 + 5) % 256));
const NAMES = ['clip-1001.mp4', 'a b 100% ?x#y001.mp4', 'Été à Paris001.mp4'];
const link = (file: string) =>
  signDownloadUrl(keys, { path: `/members/video/clip-1/${file}`, memberId: 1, expiresAt: Math.floor(Date.now() / 1000) + 86_400 });

describe.each(['nginx', 'none'] as const)('through the nginx front door (MEDIA_OFFLOAD=%s)', (offload) => {
  let fx: MediaFixture;
  let nginx: RunningNginx;
  let spaDir: string;

  beforeAll(async () => {
    fx = await startMediaFixture({ MEDIA_OFFLOAD: offload });
    for (const name of NAMES) await put(fx.root, `video/clip-1/${name}`, DATA);
    await put(fx.root, 'photosthumbs/set-1/large.jpg', DATA.subarray(0, 5000));
    spaDir = await mkdtemp(join(tmpdir(), 'spa-'));
    await writeFile(join(spaDir, 'index.html'), '<!doctype html><title>spa</title>');
    nginx = await startNginx({ bffUrl: 'http://127.0.0.1:9', mediaUrl: fx.media.url, spaDir, mediaRoot: fx.root });
  });
  afterAll(async () => {
    await nginx?.stop();
    await fx?.stop();
    await rm(spaDir, { recursive: true, force: true });
  });

  it('serves the SPA with an index.html fallback', async () => {
    for (const path of ['/', '/photos/3', '/models/A']) {
      const res = await raw(nginx.url, path);
      expect(res.status).toBe(200);
      expect(res.body.toString()).toContain('<title>spa</title>');
    }
  });

  it('never exposes the internal location', async () => {
    expect((await raw(nginx.url, '/_protected/video/clip-1/clip-1001.mp4')).status).toBe(404);
  });

  it('keeps access control: no credential -> 401 JSON', async () => {
    const res = await raw(nginx.url, '/members/video/clip-1/clip-1001.mp4');
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body.toString()).error.code).toBe('unauthenticated');
  });

  it.each(NAMES)('serves %s whole and in ranges, with its download name', async (name) => {
    const url = link(name);
    const full = await raw(nginx.url, url);
    expect(full.status).toBe(200);
    expect(full.body.equals(DATA)).toBe(true);
    expect(full.headers['content-length']).toBe(String(DATA.length));
    expect(full.headers['accept-ranges']).toBe('bytes');
    expect(full.headers['content-type']).toBe('video/mp4');
    expect(String(full.headers['content-disposition'])).toMatch(/^attachment; filename="[\x20-\x7e]+"; filename\*=UTF-8''/);
    if (offload === 'nginx') expect(full.headers['x-accel-redirect']).toBeUndefined();

    for (const [range, start, end] of [
      ['bytes=0-1023', 0, 1023],
      ['bytes=50000-', 50_000, 99_999],
      ['bytes=-100', 99_900, 99_999],
      ['bytes=99000-200000', 99_000, 99_999],
    ] as const) {
      const part = await raw(nginx.url, url, { Range: range });
      expect(part.status).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes ${start}-${end}/${DATA.length}`);
      expect(part.body.equals(DATA.subarray(start, end + 1))).toBe(true);
    }
    expect((await raw(nginx.url, url, { Range: 'bytes=100000-' })).status).toBe(416);
    const multi = await raw(nginx.url, url, { Range: 'bytes=0-9,20-29' });
    expect(multi.status).toBe(206);
    expect(String(multi.headers['content-type'])).toMatch(/^multipart\/byteranges/);
  });

  it('honours If-Range and If-None-Match with its own validators', async () => {
    const url = link('clip-1001.mp4');
    const head = await raw(nginx.url, url, {}, 'HEAD');
    const etag = String(head.headers.etag);
    expect(head.headers['content-length']).toBe(String(DATA.length));
    expect((await raw(nginx.url, url, { Range: 'bytes=10-19', 'If-Range': etag })).status).toBe(206);
    expect((await raw(nginx.url, url, { Range: 'bytes=10-19', 'If-Range': '"changed"' })).status).toBe(200);
    expect((await raw(nginx.url, url, { 'If-None-Match': etag })).status).toBe(304);
  });

  it('passes thumbnail variants with Vary: Accept', async () => {
    const res = await raw(nginx.url, '/members/photosthumbs/set-1/large.jpg');
    expect(res.status).toBe(200);
    expect(res.body.equals(DATA.subarray(0, 5000))).toBe(true);
    expect(res.headers['cache-control']).toMatch(/^public/);
  });
});
