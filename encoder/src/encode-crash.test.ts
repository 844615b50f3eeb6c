import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKnex, migrateLatest } from '@media-site/db';
import { topLevelBoxes } from './mp4-boxes';
import { enqueue, jobById, sourceSig } from '@media-site/db/encode';
import { createTestDb, testBackends, type TestDb } from '@media-site/db/testing';
import { makeClip, placeVideo } from './testing-clips';

const encoderDir = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** `ownGroup`: the worker leads a process group of its own, so a test can signal the whole group as a terminal's Ctrl-C does. */
function startWorker(databaseUrl: string, mediaRoot: string, ownGroup = false) {
  // A slow preset on one thread: long enough to be caught mid-encode, modest on the shared CPU.
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    MEDIA_ROOT: mediaRoot,
    ENCODE_PRESET: 'slow',
    ENCODE_THREADS: '1',
    ENCODE_LEASE_SECONDS: '600',
  };
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: encoderDir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: ownGroup,
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, exited, output: () => output };
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Processes whose command line names the folder (an orphaned ffmpeg would). */
async function processesMentioning(text: string): Promise<number[]> {
  const found: number[] = [];
  for (const pid of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(pid)) continue;
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(text) && !cmdline.includes('vitest')) found.push(Number(pid));
  }
  return found;
}

describe.each(testBackends())('a worker killed mid-encode (%s)', (backend) => {
  let dir: string;
  let knex: Knex;
  let testDb: TestDb | undefined;
  let url: string;
  let mediaRoot: string;
  let jobId: number;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'encode-crash-'));
    mediaRoot = join(dir, 'media');
    if (backend === 'sqlite') {
      // A file both this process and the worker open.
      url = `sqlite:${join(dir, 'catalog.sqlite')}`;
      knex = createKnex(url);
      await migrateLatest(knex);
    } else {
      testDb = await createTestDb(backend);
      ({ knex, url } = testDb);
    }
    const clip = await makeClip(join(dir, 'long.mpg'), { container: 'mpg', size: '480x270', seconds: 20 });
    const original = await placeVideo(knex, mediaRoot, 'long-clip', clip);
    jobId = (await enqueue(knex, { type: 'video', path: 'long-clip', sourceSig: (await sourceSig(original)) ?? '' }, Date.now())).id;
  });
  afterAll(async () => {
    if (testDb) await testDb.destroy();
    else await knex?.destroy();
    await rm(dir, { recursive: true, force: true });
  });

  it('is picked up again by the next worker, redone cleanly, and nothing partial is ever served', { timeout: 180_000 }, async () => {
    const first = startWorker(url, mediaRoot);
    const partial = await waitFor('the first worker to write a rendition', async () => {
      const attempts = await readdir(join(mediaRoot, '.partial')).catch(() => [] as string[]);
      for (const attempt of attempts) {
        const file = join(mediaRoot, '.partial', attempt, '270p.mp4');
        if ((await stat(file).catch(() => null))?.size) return file;
      }
      return undefined;
    });
    expect(await jobById(knex, jobId)).toMatchObject({ status: 'running', attempts: 1 });
    first.child.kill('SIGKILL');
    await first.exited;

    // The watchdog takes ffmpeg down with its worker; the half-made file was never published.
    await waitFor('the orphaned ffmpeg to go', async () => (await processesMentioning(mediaRoot)).length === 0, 3000);
    expect(existsSync(join(mediaRoot, 'videorenditions'))).toBe(false);
    expect(existsSync(join(mediaRoot, 'videopreviews'))).toBe(false);
    expect(await jobById(knex, jobId)).toMatchObject({ status: 'running' });

    const second = startWorker(url, mediaRoot);
    const code = await second.exited;
    expect(code, second.output()).toBe(0);
    // Claimed again at once: the dead worker's pid is gone on this host, no need to wait out its lease.
    expect(await jobById(knex, jobId)).toMatchObject({ status: 'done', attempts: 2, slot: null, claim: null });
    expect(existsSync(partial)).toBe(false);
    expect(await readdir(join(mediaRoot, '.partial'))).toEqual([]);
    const boxes = await topLevelBoxes(join(mediaRoot, 'videorenditions/long-clip/270p.mp4'));
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
    expect((await readdir(join(mediaRoot, 'videopreviews/long-clip'))).sort()).toEqual([
      'poster.jpg',
      'sprite.jpg',
      'thumbs.vtt',
      'trailer.mp4',
    ]);
  });

  // On one backend (the last: MariaDB where it runs): what a stop does to the job is the worker's, not the database's.
  it.runIf(backend === testBackends().at(-1))(
    'stopped ten times mid-job (SIGTERM, and SIGINT to its process group as Ctrl-C sends), hands it back each time: no attempt counted',
    { timeout: 240_000 },
    async () => {
      const clip = await makeClip(join(dir, 'stops.mpg'), { container: 'mpg', size: '480x270', seconds: 20 });
      const original = await placeVideo(knex, mediaRoot, 'stops-clip', clip);
      const id = (await enqueue(knex, { type: 'video', path: 'stops-clip', sourceSig: (await sourceSig(original)) ?? '' }, Date.now())).id;
      const encoding = async () => {
        for (const attempt of await readdir(join(mediaRoot, '.partial')).catch(() => [] as string[]))
          for (const name of await readdir(join(mediaRoot, '.partial', attempt)).catch(() => [] as string[]))
            if (name.endsWith('.mp4') && (await stat(join(mediaRoot, '.partial', attempt, name)).catch(() => null))?.size) return true;
        return false;
      };
      for (let stop = 1; stop <= 10; stop += 1) {
        const group = stop > 5;
        const worker = startWorker(url, mediaRoot, group);
        // SIGTERM once ffmpeg writes; SIGINT to the group as soon as the job is claimed (ffprobe may be reading it).
        if (group) await waitFor('the job to be claimed', async () => (await jobById(knex, id))?.status === 'running');
        else await waitFor('ffmpeg to write a rendition', encoding);
        if (group) process.kill(-worker.child.pid!, 'SIGINT');
        else worker.child.kill('SIGTERM');
        const code = await worker.exited;
        expect(code, `stop ${stop}: ${worker.output()}`).toBe(0);
        expect(await jobById(knex, id), `stop ${stop}: ${worker.output()}`).toMatchObject({ status: 'queued', attempts: 0, claim: null });
        expect(await processesMentioning(mediaRoot), `stop ${stop}`).toEqual([]);
      }
      const last = startWorker(url, mediaRoot);
      expect(await last.exited, last.output()).toBe(0);
      expect(await jobById(knex, id)).toMatchObject({ status: 'done', attempts: 1, error: null });
      expect(await readdir(join(mediaRoot, '.partial'))).toEqual([]);
      expect(existsSync(join(mediaRoot, 'videorenditions/stops-clip/270p.mp4'))).toBe(true);
    },
  );
});
