import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, createReadStream, mkdirSync, openSync, statSync, writeSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signDownloadUrl } from '@media-site/contracts/token';
import { startNginx } from '../src/nginx';
import type { RunningNginx } from '../src/nginx';
import { keys, startMediaFixture } from './media-fixture';
import type { MediaFixture } from './media-fixture';

const MiB = 1024 * 1024;
const SIZE = 256 * MiB;

/** 256 random MiB blocks, each stamped with its index, so a splice at a wrong offset changes the hash. */
function writeMovie(path: string): void {
  const block = Buffer.alloc(MiB);
  for (let i = 0; i < block.length; i += 4) block.writeUInt32LE((Math.random() * 2 ** 32) >>> 0, i);
  const fd = openSync(path, 'w');
  for (let i = 0; i < SIZE / MiB; i += 1) {
    block.writeUInt32LE(i, 0);
    writeSync(fd, block);
  }
  closeSync(fd);
}

async function sha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: MiB })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Async on purpose: the media service answering runs in this process. */
function run(cmd: string, args: string[]): Promise<{ status: number | null; stderr: string }> {
  const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((r) => child.once('exit', (status) => r({ status, stderr })));
}

/** Starts a rate-limited download and kills it once part of the file has arrived. */
async function interrupted(cmd: string, args: string[], file: string): Promise<number> {
  const child = spawn(cmd, args, { stdio: 'ignore' });
  const done = new Promise<void>((r) => child.once('exit', () => r()));
  for (;;) {
    const size = await stat(file).then((s) => s.size, () => 0);
    if (size >= 32 * MiB || child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  child.kill('SIGKILL');
  await done;
  return statSync(file).size;
}

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
    writeMovie(join(offloading.root, 'video/movie-1/Movie HD001.mp4'));
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
    signDownloadUrl(keys, { path: '/members/video/movie-1/Movie HD001.mp4', memberId: 3, expiresAt: Math.floor(Date.now() / 1000) + 86_400 });
  const base = (via: 'direct' | 'nginx') => (via === 'nginx' ? nginx.url : plain.media.url);

  describe.each(['direct', 'nginx'] as const)('%s', (via) => {
    it('curl -C - finishes it with an identical file', async () => {
      const target = join(work, `curl-${via}.mp4`);
      const source = base(via) + link();
      const got = await interrupted('curl', ['-sS', '--limit-rate', '64M', '-o', target, source], target);
      expect(got).toBeGreaterThan(0);
      expect(got).toBeLessThan(SIZE);
      const resumed = await run('curl', ['-sS', '-f', '-C', '-', '-o', target, source]);
      expect(resumed.status, resumed.stderr).toBe(0);
      expect(statSync(target).size).toBe(SIZE);
      expect(await sha256(target)).toBe(expected);
    });

    it('wget -c finishes it with an identical file', async () => {
      const target = join(work, `wget-${via}.mp4`);
      const source = base(via) + link();
      const got = await interrupted('wget', ['-q', '--limit-rate=64m', '-O', target, source], target);
      expect(got).toBeGreaterThan(0);
      expect(got).toBeLessThan(SIZE);
      const resumed = await run('wget', ['-q', '-c', '-O', target, source]);
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
      const first = spawn('aria2c', [...common, '--max-overall-download-limit=64M', source], { stdio: 'ignore' });
      const stopped = new Promise<void>((r) => first.once('exit', () => r()));
      // Let part of it arrive, then stop it the way a user does (aria2 saves its control file on SIGINT).
      const started = Date.now();
      while (Date.now() - started < 10_000 && !(await stat(join(dir, `${name}.aria2`)).then(() => true, () => false))) {
        await new Promise((r) => setTimeout(r, 20));
      }
      await new Promise((r) => setTimeout(r, 800));
      first.kill('SIGINT');
      await stopped;
      const control = await stat(join(dir, `${name}.aria2`)).then(() => true, () => false);
      expect(control, 'aria2 left a control file: the download was cut off before the end').toBe(true);
      const resumed = await run('aria2c', ['-c', ...common, source]);
      expect(resumed.status, resumed.stderr).toBe(0);
      expect(statSync(join(dir, name)).size).toBe(SIZE);
      expect(await sha256(join(dir, name))).toBe(expected);
    });
  });
});
