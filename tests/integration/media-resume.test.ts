import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { signDownloadUrl } from '@media-site/contracts/token';
import { expectAria2Resumed, expectResumed, MiB, plantBlocks, type WholeFile } from '../src/download-kit';
import { startNginx } from '../src/nginx';
import type { RunningNginx } from '../src/nginx';
import { keys, startMediaFixture } from './media-fixture';
import type { MediaFixture } from './media-fixture';

const SIZE = 256 * MiB;

describe('resuming a 256 MB download cut off midway', () => {
  let offloading: MediaFixture;
  let plain: MediaFixture;
  let nginx: RunningNginx;
  let work: string;
  let whole: WholeFile;

  beforeAll(async () => {
    offloading = await startMediaFixture({ MEDIA_OFFLOAD: 'nginx' });
    plain = await startMediaFixture({ MEDIA_ROOT: offloading.root });
    work = await mkdtemp(join(tmpdir(), 'resume-'));
    whole = { size: SIZE, sha256: await plantBlocks(join(offloading.root, 'video/movie-1/Movie HD001.mp4'), SIZE), rateMiB: 64 };
    nginx = await startNginx({ bffUrl: 'http://127.0.0.1:9', mediaUrl: offloading.media.url, spaDir: work, mediaRoot: offloading.root });
  });
  afterAll(async () => {
    await nginx?.stop();
    await plain?.stop();
    await offloading?.stop();
    await rm(work, { recursive: true, force: true });
  });

  const link = () =>
    signDownloadUrl(keys, {
      path: '/members/video/movie-1/Movie HD001.mp4',
      memberId: 3,
      expiresAt: Math.floor(Date.now() / 1000) + 86_400,
    });
  const base = (via: 'direct' | 'nginx') => (via === 'nginx' ? nginx.url : plain.media.url);

  describe.each(['direct', 'nginx'] as const)('%s', (via) => {
    it('curl -C - finishes it with an identical file', async () => {
      await expectResumed('curl', base(via) + link(), join(work, `curl-${via}.mp4`), 32 * MiB, whole);
    });

    it('wget -c finishes it with an identical file', async () => {
      await expectResumed('wget', base(via) + link(), join(work, `wget-${via}.mp4`), 32 * MiB, whole);
    });

    // A download manager: four connections, each asking for its own byte ranges of the file, stopped
    // midway (aria2 keeps its progress in a .aria2 control file) and resumed with -c.
    it('aria2c with 4 segments, stopped and resumed with -c, finishes it with an identical file', async () => {
      await expectAria2Resumed(base(via) + link(), join(work, `aria2-${via}`), 'movie.mp4', whole);
    });
  });
});
