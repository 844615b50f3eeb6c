import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { enqueue, jobCounts, type JobRow, type Manifest, parseManifest, sourceSig } from '@media-site/db/encode';
import { testBackends, useTestDb } from '@media-site/db/testing';
import { S3Originals } from '@media-site/storage';
import { startTestS3, type TestS3 } from '@media-site/storage/testing-s3';
import { loadEncoderConfig, type EncoderConfig } from './config';
import { makeClip, placeVideo } from './testing-clips';
import { EncodeWorker, type WorkerEvent } from './worker';

// STORAGE=s3: the worker downloads the original from the bucket into a per-job scratch
// folder, encodes there, uploads every output under its media path and only then records the job done.
let dir: string;
let s3: TestS3;
let bucket: S3Originals;
let clip: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'encode-s3-'));
  s3 = await startTestS3(0);
  bucket = new S3Originals(s3.settings);
  clip = await makeClip(join(dir, 'clip.mp4'), { container: 'mp4', size: '320x180', seconds: 2 });
});
afterAll(async () => {
  await s3?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe.each(testBackends())('the encoder with STORAGE=s3 (%s)', (backend) => {
  const db = useTestDb(backend);
  let run = 0;
  let mediaRoot: string;

  beforeEach(async () => {
    await db.knex('media_jobs').del();
    await db.knex('videos').del();
    run += 1;
    mediaRoot = join(dir, `${backend}-${run}`, 'media');
  });

  /** A video row and its original in the bucket only, as ingest with STORAGE=s3 leaves them; the job queued. */
  async function placeInBucket(path: string): Promise<number> {
    const staging = join(dir, `${backend}-${run}`, 'staging');
    const original = await placeVideo(db.knex, staging, path, clip);
    await bucket.put(relative(staging, original).split(sep).join('/'), original);
    const sig = (await sourceSig(original)) ?? '';
    await rm(staging, { recursive: true, force: true });
    return (await enqueue(db.knex, { type: 'video', path, sourceSig: sig }, Date.now())).id;
  }

  function config(scratch: string): EncoderConfig {
    return loadEncoderConfig({
      ...s3.env,
      DATABASE_URL: db.url,
      MEDIA_ROOT: mediaRoot,
      ENCODER_SCRATCH_DIR: scratch,
      ENCODE_THREADS: '1',
      ENCODE_MAX_ATTEMPTS: '1',
    });
  }

  function worker(c: EncoderConfig, concurrency: number, events: WorkerEvent[]): EncodeWorker {
    return new EncodeWorker({
      knex: db.knex,
      mediaRoot: c.mediaRoot,
      settings: c.encode.settings,
      concurrency,
      leaseMs: c.encode.leaseMs,
      maxAttempts: c.encode.maxAttempts,
      pollMs: 50,
      storage: c.storage,
      scratchDir: c.scratchDir,
      onEvent: (e) => events.push(e),
    });
  }

  const doneIds = (events: WorkerEvent[]) => events.flatMap((e) => (e.kind === 'done' ? [e.job.id] : []));
  const failures = (events: WorkerEvent[]) => events.filter((e) => e.kind === 'failed' || e.kind === 'error' || e.kind === 'lost');

  it('downloads the original to scratch, uploads every output to the bucket, leaves MEDIA_ROOT empty', { timeout: 120_000 }, async () => {
    const id = await placeInBucket('bucket-clip');
    const scratch = join(dir, `${backend}-${run}`, 'scratch');
    const c = config(scratch);
    expect(c.storage?.bucket).toBe(s3.bucket);
    const events: WorkerEvent[] = [];
    await worker(c, 1, events).run();
    expect(failures(events)).toEqual([]);
    expect(doneIds(events)).toEqual([id]);
    const done = events.find(
      (e): e is { kind: 'done'; job: JobRow; manifest: Manifest; seconds: number; requeued: boolean } => e.kind === 'done',
    )!;

    const renditions = (await bucket.list('videorenditions/bucket-clip/')).map((o) => o.relative).sort();
    expect(renditions).toEqual(done.manifest.renditions.map((r) => `videorenditions/bucket-clip/${r.file}`).sort());
    expect(renditions.length).toBeGreaterThan(0);
    expect((await bucket.list('videopreviews/bucket-clip/')).map((o) => o.relative).sort()).toEqual([
      'videopreviews/bucket-clip/poster.jpg',
      'videopreviews/bucket-clip/sprite.jpg',
      'videopreviews/bucket-clip/thumbs.vtt',
      'videopreviews/bucket-clip/trailer.mp4',
    ]);
    expect((await bucket.head('videopreviews/bucket-clip/thumbs.vtt'))?.size).toBeGreaterThan(0);
    // Nothing on the local tree, and the job's scratch folder is gone.
    expect(existsSync(mediaRoot)).toBe(false);
    expect(await readdir(scratch)).toEqual([]);
    expect(await db.knex('media_jobs').where({ id }).first('status', 'attempts')).toEqual({ status: 'done', attempts: 1 });
  });

  it.each(['the bucket', 'MEDIA_ROOT'] as const)(
    'a re-encode from a smaller original deletes the larger rendition in %s once the new manifest is recorded',
    { timeout: 120_000 },
    async (where) => {
      const inBucket = where === 'the bucket';
      const big = await makeClip(join(dir, `${backend}-${run}-big.mp4`), { container: 'mp4', size: '640x360', seconds: 2 });
      const root = inBucket ? join(dir, `${backend}-${run}`, 'staging') : mediaRoot;
      const original = await placeVideo(db.knex, root, 'shrinking-clip', big);
      const key = relative(root, original).split(sep).join('/');
      const c = config(join(dir, `${backend}-${run}`, 'scratch'));
      const renditions = async () =>
        inBucket
          ? (await bucket.list('videorenditions/shrinking-clip/')).map((o) => o.relative.split('/').pop()).sort()
          : (await readdir(join(mediaRoot, 'videorenditions', 'shrinking-clip'))).sort();
      const encode = async (source: string) => {
        await copyFile(source, original);
        if (inBucket) await bucket.put(key, original);
        const sig = (await sourceSig(original)) ?? '';
        const { id } = await enqueue(db.knex, { type: 'video', path: 'shrinking-clip', sourceSig: sig }, Date.now());
        const events: WorkerEvent[] = [];
        await worker({ ...c, storage: inBucket ? c.storage : null }, 1, events).run();
        expect(failures(events)).toEqual([]);
        const row = await db.knex('media_jobs').where({ id }).first('status', 'manifest');
        expect(row?.status).toBe('done');
        return {
          named: parseManifest(row?.manifest as string)
            ?.renditions.map((r) => r.file)
            .sort(),
          listed: await renditions(),
        };
      };
      const first = await encode(big);
      expect(first.named).toContain('360p.mp4');
      expect(first.listed).toEqual(first.named);
      const second = await encode(clip);
      expect(second.named).toEqual(['180p.mp4']);
      // The 360p file the first manifest named is gone: what is stored is what the manifest names, no more.
      expect(second.listed).toEqual(['180p.mp4']);
      if (inBucket) expect(existsSync(mediaRoot)).toBe(false);
    },
  );

  it('fails the job for good when the original is not in the bucket, and removes its scratch folder', { timeout: 60_000 }, async () => {
    await placeVideo(db.knex, join(dir, `${backend}-${run}`, 'nowhere'), 'missing-clip', clip);
    const { id } = await enqueue(db.knex, { type: 'video', path: 'missing-clip', sourceSig: 'x' }, Date.now());
    const scratch = join(dir, `${backend}-${run}`, 'scratch');
    const events: WorkerEvent[] = [];
    await worker(config(scratch), 1, events).run();
    expect(events.filter((e) => e.kind === 'failed')).toEqual([
      {
        kind: 'failed',
        job: expect.objectContaining({ id }),
        error: 'the original of video/missing-clip is not in the bucket',
        final: true,
      },
    ]);
    expect(await readdir(scratch)).toEqual([]);
  });

  it('two workers with their own scratch folders share the queue: every job done exactly once', { timeout: 300_000 }, async () => {
    const rate = async (workers: number): Promise<{ perMinute: number; split: string }> => {
      await db.knex('media_jobs').del();
      await db.knex('videos').del();
      const ids: number[] = [];
      for (let i = 0; i < 4; i += 1) ids.push(await placeInBucket(`w${workers}-clip-${i}`));
      const scratches = Array.from({ length: workers }, (_, i) => join(dir, `${backend}-${run}`, `scratch-${workers}-${i}`));
      const events = scratches.map(() => [] as WorkerEvent[]);
      const started = performance.now();
      // `workers` slots shared on the queue; each worker may take any of them.
      await Promise.all(scratches.map((s, i) => worker(config(s), workers, events[i]!).run()));
      const minutes = (performance.now() - started) / 60_000;
      const all = events.flat();
      expect(failures(all)).toEqual([]);
      expect(doneIds(all).sort((a, b) => a - b)).toEqual(ids);
      expect(await jobCounts(db.knex)).toEqual({ queued: 0, running: 0, done: 4, failed: 0 });
      expect(Number((await db.knex('media_jobs').where('attempts', '!=', 1).count({ n: '*' }).first())?.n)).toBe(0);
      // Empty or never made: a worker that claimed no job (the other took all four) made no folder.
      for (const s of scratches) expect(existsSync(s) ? await readdir(s) : []).toEqual([]);
      for (const i of ids.keys()) expect(await bucket.head(`videopreviews/w${workers}-clip-${i}/poster.jpg`)).not.toBeNull();
      expect(existsSync(mediaRoot)).toBe(false);
      return { perMinute: 4 / minutes, split: events.map((e) => doneIds(e).length).join('+') };
    };
    const one = await rate(1);
    const two = await rate(2);
    console.log(
      `encode through the bucket (${backend}): 1 worker ${one.perMinute.toFixed(1)} jobs/min, 2 workers ${two.perMinute.toFixed(1)} jobs/min (jobs per worker ${two.split})`,
    );
  });
});
