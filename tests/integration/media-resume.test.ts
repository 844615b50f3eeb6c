import { mkdirSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signDownloadUrl } from '@media-site/contracts/token';
import { aria2Stopped, interrupted, MiB, runTool, sha256, writeBlocks } from '../src/download-kit';
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
  let expected: string;

  beforeAll(async () => {
    offloading = await startMediaFixture({ MEDIA_OFFLOAD: 'nginx' });
    plain = await startMediaFixture({ MEDIA_ROOT: offloading.root });
    work = await mkdtemp(join(tmpdir(), 'resume-'));
    mkdirSync(join(offloading.root, 'video/movie-1'), { recursive: true });
    writeBlocks(join(offloading.root, 'video/movie-1/Movie HD001.mp4'), SIZE);
    expected = await sha256(join(offloading.root, 'video/movie-1/Movie HD001.mp4'));
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
      const target = join(work, `curl-${via}.mp4`);
      const source = base(via) + link();
      const got = await interrupted('curl', ['-sS', '--limit-rate', '64M', '-o', target, source], target, 32 * MiB);
      expect(got).toBeGreaterThan(0);
      expect(got).toBeLessThan(SIZE);
      const resumed = await runTool('curl', ['-sS', '-f', '-C', '-', '-o', target, source]);
      expect(resumed.status, resumed.stderr).toBe(0);
      expect(statSync(target).size).toBe(SIZE);
      expect(await sha256(target)).toBe(expected);
    });

    it('wget -c finishes it with an identical file', async () => {
      const target = join(work, `wget-${via}.mp4`);
      const source = base(via) + link();
      const got = await interrupted('wget', ['-q', '--limit-rate=64m', '-O', target, source], target, 32 * MiB);
      expect(got).toBeGreaterThan(0);
      expect(got).toBeLessThan(SIZE);
      const resumed = await runTool('wget', ['-q', '-c', '-O', target, source]);
      expect(resumed.status, resumed.stderr).toBe(0);
      expect(statSync(target).size).toBe(SIZE);
      expect(await sha256(target)).toBe(expected);
    });

    // A download manager: four connections, each asking for its own byte ranges of the file, stopped
    // midway (aria2 keeps its progress in a .aria2 control file) and resumed with -c.
    it('aria2c with 4 segments, stopped and resumed with -c, finishes it with an identical file', async () => {
      const dir = join(work, `aria2-${via}`);
      mkdirSync(dir, { recursive: true });
      const name = 'movie.mp4';
      const source = base(via) + link();
      const common = ['-q', '-d', dir, '-o', name, '-x', '4', '-s', '4', '-k', '1M', '--file-allocation=none', '--allow-overwrite=false'];
      const control = await aria2Stopped(common, source, '64M', join(dir, `${name}.aria2`));
      expect(control, 'aria2 left a control file: the download was cut off before the end').toBe(true);
      const resumed = await runTool('aria2c', ['-c', ...common, source]);
      expect(resumed.status, resumed.stderr).toBe(0);
      expect(statSync(join(dir, name)).size).toBe(SIZE);
      expect(await sha256(join(dir, name))).toBe(expected);
    });
  });
});
