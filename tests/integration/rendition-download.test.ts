import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renditionDownloadUrl } from '@media-site/contracts/download-name';
import { signDownloadUrl } from '@media-site/contracts/token';
import { deriveItem } from '@media-site/encoder';
import { ENCODE_SETTINGS, h264Output, makeTestPattern } from '@media-site/encoder/testing-clips';
import type { Manifest } from '@media-site/db/encode';
import { expectAria2Resumed, expectResumed, MiB, plantBlocks, sha256, type WholeFile } from '../src/download-kit';
import { startNginx } from '../src/nginx';
import type { RunningNginx } from '../src/nginx';
import { keys, raw, startMediaFixture } from './media-fixture';
import type { MediaFixture } from './media-fixture';

// A rendition downloads under `{original's name without extension}_{label}.mp4` through
// the front door with MEDIA_OFFLOAD=nginx (X-Accel-Redirect to the real `{label}.mp4`), resumes
// after a cut like the original does, and arrives byte for byte; a clip encoded here gives the
// sizes the download choices show.
const SIZE = 64 * MiB;
const ORIGINAL = 'Movie HD001.mp4';

describe('rendition downloads through nginx (MEDIA_OFFLOAD=nginx)', () => {
  let fx: MediaFixture;
  let nginx: RunningNginx;
  let work: string;
  let whole: WholeFile;

  beforeAll(async () => {
    fx = await startMediaFixture({ MEDIA_OFFLOAD: 'nginx' });
    work = await mkdtemp(join(tmpdir(), 'rendition-dl-'));
    whole = { size: SIZE, sha256: await plantBlocks(join(fx.root, 'videorenditions/movie-1/720p.mp4'), SIZE), rateMiB: 16 };
    nginx = await startNginx({ bffUrl: 'http://127.0.0.1:9', mediaUrl: fx.media.url, spaDir: work, mediaRoot: fx.root });
  });
  afterAll(async () => {
    await nginx?.stop();
    await fx?.stop();
    await rm(work, { recursive: true, force: true });
  });

  const path = renditionDownloadUrl('video', 'movie-1', ORIGINAL, '720p');
  const signed = () => signDownloadUrl(keys, { path, memberId: 3, expiresAt: Math.floor(Date.now() / 1000) + 86_400 });
  const link = () => nginx.url + signed();

  it("answers with the download name as an attachment, the real file's bytes, and ranges from nginx", async () => {
    expect(path).toBe('/members/videorenditions/movie-1/Movie HD001_720p.mp4');
    const head = await raw(nginx.url, signed(), {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-disposition']).toBe(
      `attachment; filename="Movie HD001_720p.mp4"; filename*=UTF-8''Movie%20HD001_720p.mp4`,
    );
    expect(head.headers['content-length']).toBe(String(SIZE));
    expect(head.headers['x-accel-redirect']).toBeUndefined();
    const part = await raw(nginx.url, signed(), { Range: 'bytes=1048576-1048579', 'If-Range': String(head.headers.etag) });
    expect(part.status).toBe(206);
    expect(part.body.readUInt32LE(0)).toBe(1);
    expect((await raw(nginx.url, '/members/videorenditions/movie-1/Movie%20HD001_720p.mp4')).status).toBe(401);
  });

  it('curl -C - finishes a cut-off download with an identical file', async () => {
    await expectResumed('curl', link(), join(work, 'curl.mp4'), 8 * MiB, whole);
  });

  it('aria2c with 4 segments, stopped and resumed with -c, finishes it with an identical file', async () => {
    await expectAria2Resumed(link(), join(work, 'aria2'), 'movie_720p.mp4', whole);
  });

  // The figure: a 10 s 1280x720 clip with grain at ~8 Mb/s, as a camera original might be, through the encoder.
  it(
    "encodes a clip whose manifest has the original's bytes next to each rendition's, each downloadable",
    { timeout: 240_000 },
    async () => {
      const source = join(fx.root, 'video/clip-9', ORIGINAL);
      await makeTestPattern(source, {
        size: '1280x720',
        seconds: 10,
        output: ['-vf', 'noise=alls=12:allf=t', ...h264Output('-b:v', '8M')],
      });
      const s = statSync(source);
      const manifest: Manifest = await deriveItem({
        jobId: 9,
        attempt: 'a',
        type: 'video',
        path: 'clip-9',
        original: source,
        sourceSig: `${s.size}-${Math.round(s.mtimeMs)}`,
        mediaRoot: fx.root,
        settings: { ...ENCODE_SETTINGS, threads: 2 },
      });
      expect(manifest.source.bytes).toBe(s.size);
      const sizes = manifest.renditions.map((r) => `${r.label} ${(r.bytes / 1e6).toFixed(2)} MB`);
      console.log(`figure: original ${(s.size / 1e6).toFixed(2)} MB; ${sizes.join(', ')}`);
      for (const r of manifest.renditions) {
        expect(r.bytes).toBe(statSync(join(fx.root, 'videorenditions/clip-9', r.file)).size);
        const url = signDownloadUrl(keys, {
          path: renditionDownloadUrl('video', 'clip-9', ORIGINAL, r.label),
          memberId: 3,
          expiresAt: Math.floor(Date.now() / 1000) + 600,
        });
        const res = await raw(nginx.url, url);
        expect(res.status).toBe(200);
        expect(res.body.length).toBe(r.bytes);
        expect(createHash('sha256').update(res.body).digest('hex')).toBe(await sha256(join(fx.root, 'videorenditions/clip-9', r.file)));
        expect(res.headers['content-disposition']).toMatch(new RegExp(`^attachment; filename="Movie HD001_${r.label}\\.mp4"`));
      }
    },
  );
});
