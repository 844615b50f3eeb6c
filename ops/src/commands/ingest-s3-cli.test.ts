import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobCounts, parseManifest } from '@media-site/db/encode';
import { S3Originals } from '@media-site/storage';
import { startTestS3, type TestS3 } from '@media-site/storage/testing-s3';
import { makeClip } from '@media-site/encoder/testing-clips';
import { testBackends, useTestDb } from '@media-site/db/testing';
import { runOpsCaptured } from './registry';

// ingest, ingest --wait and encode with STORAGE=s3: the bucket is the only place media goes.
const temps: string[] = [];
const temp = async (prefix: string) => {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
};

let folder: string;
let later: string;

async function photoSet(root: string, path: string, names: string[]): Promise<void> {
  await mkdir(join(root, 'photos', path), { recursive: true });
  for (const [i, name] of names.entries()) {
    await sharp({ create: { width: 400, height: 300, channels: 3, background: `hsl(${i * 50}, 60%, 40%)` } })
      .jpeg()
      .toFile(join(root, 'photos', path, name));
  }
  await writeFile(
    join(root, 'photos', path, 'meta.json'),
    JSON.stringify({ updatename: `Set ${path}`, modelname: 'Model S3', datetoupload: '2025-06-01' }),
  );
}

async function video(root: string, path: string): Promise<void> {
  await makeClip(join(root, 'video', path, 'source.mp4'), { container: 'mp4' });
  await writeFile(
    join(root, 'video', path, 'meta.json'),
    JSON.stringify({ updatename: `Clip ${path}`, modelname: 'Model S3', datetoupload: '2025-06-01', prename: `S3_${path}.mp4` }),
  );
}

const FAMILIES = ['photos', 'photosthumbs', 'video', 'videothumbs', 'videorenditions', 'videopreviews'];

/** Every object of these items with its version (ETag, LastModified, size: a re-upload changes it). */
async function objects(store: S3Originals, paths: string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const family of FAMILIES)
    for (const path of paths) for (const o of await store.list(`${family}/${path}/`)) found.set(o.relative, o.version);
  return found;
}

beforeAll(async () => {
  folder = await temp('ingest-s3-src-');
  await photoSet(folder, 'set-s3', ['p1.jpg', 'p2.jpg']);
  await video(folder, 'clip-s3');
  later = await temp('ingest-s3-later-');
  await video(later, 'clip-later');
}, 60_000);

afterAll(async () => {
  await Promise.all(temps.map((d) => rm(d, { recursive: true, force: true })));
});

describe.each(testBackends())('ingest and encode with STORAGE=s3 on %s', (backend) => {
  const db = useTestDb(backend);
  let s3: TestS3;
  let store: S3Originals;
  let mediaRoot: string;
  let scratch: string;
  const cli = (argv: string[], env: Record<string, string> = s3.env) =>
    runOpsCaptured(argv, {
      env: { MEDIA_ROOT: mediaRoot, ENCODER_SCRATCH_DIR: scratch, ENCODE_THREADS: '1', ...env },
      knex: db.knex,
    });

  beforeAll(async () => {
    // A bucket of its own per backend.
    s3 = await startTestS3(0);
    store = new S3Originals(s3.settings);
    const base = await temp(`ingest-s3-${backend}-`);
    mediaRoot = join(base, 'media');
    scratch = join(base, 'scratch');
  });
  afterAll(async () => {
    store?.close();
    await s3?.stop();
  });

  it(
    'ingest --wait puts originals, thumbnails, frames and renditions in the bucket, and never creates MEDIA_ROOT',
    { timeout: 180_000 },
    async () => {
      const result = await cli(['ingest', folder, '--wait']);
      expect(result.code, `${result.out}\n${result.err}`).toBe(0);
      const keys = [...(await objects(store, ['set-s3', 'clip-s3'])).keys()];
      expect(keys).toEqual(
        expect.arrayContaining([
          'photos/set-s3/p1.jpg',
          'photos/set-s3/p2.jpg',
          'photosthumbs/set-s3/p1.jpg',
          'photosthumbs/set-s3/p2.jpg',
          'photosthumbs/set-s3/large.jpg',
          ...['02', '05', '10', '15'].map((s) => `videothumbs/clip-s3/clip-s3_${s}.jpg`),
          'videopreviews/clip-s3/poster.jpg',
        ]),
      );
      // The original under its download name (spec §7), as the encoder looks for it.
      expect(keys.filter((k) => k.startsWith('video/clip-s3/'))).toEqual([expect.stringMatching(/^video\/clip-s3\/S3_clip-s3/)]);
      const job = await db.knex('media_jobs').where({ path: 'clip-s3' }).first('manifest');
      const manifest = parseManifest(job.manifest);
      expect(manifest?.renditions.length).toBeGreaterThan(0);
      for (const r of manifest?.renditions ?? []) expect(keys).toContain(`videorenditions/clip-s3/${r.file}`);
      expect(existsSync(mediaRoot)).toBe(false);
      expect(await readdir(scratch)).toEqual([]);
    },
  );

  it('a rerun uploads nothing and queues nothing', { timeout: 60_000 }, async () => {
    const before = await objects(store, ['set-s3', 'clip-s3']);
    const result = await cli(['ingest', folder, '--json']);
    expect(result.code, result.err).toBe(0);
    const report = JSON.parse(result.out) as { filesWritten: number; encode: { queued: number; pending: number[] } };
    expect(report.filesWritten).toBe(0);
    expect(report.encode).toEqual({ queued: 0, pending: [] });
    expect(await objects(store, ['set-s3', 'clip-s3'])).toEqual(before);
    expect(existsSync(mediaRoot)).toBe(false);
  });

  it('ops encode works a queued job through the bucket', { timeout: 180_000 }, async () => {
    const ingested = await cli(['ingest', later, '--quiet']);
    expect(ingested.code, ingested.out).toBe(0);
    const encoded = await cli(['encode', '--quiet']);
    expect(encoded.code, encoded.err).toBe(0);
    expect(await jobCounts(db.knex)).toMatchObject({ queued: 0, running: 0, failed: 0, done: 2 });
    expect((await store.list('videorenditions/clip-later/')).length).toBeGreaterThan(0);
    // encode --scan asks the bucket: the outputs are there, nothing to queue.
    const scanned = await cli(['encode', '--scan', '--quiet']);
    expect(scanned.err).toMatch(/scanned 2 videos and VODs: 0 queued, 0 without an original/);
    expect(existsSync(mediaRoot)).toBe(false);
  });

  it('a stopped bucket fails the item with the key named, exit 1, and no row is written', { timeout: 120_000 }, async () => {
    const down = await startTestS3(0);
    await down.stop();
    const fresh = await temp('ingest-s3-down-');
    await photoSet(fresh, 'set-down', ['d1.jpg']);
    const result = await cli(['ingest', fresh], { ...down.env, S3_BUCKET: s3.bucket });
    expect(result.code).toBe(1);
    expect(result.out).toMatch(/photos\/set-down: object storage: could not \w+ photosthumbs\/set-down\/d1\.jpg: /);
    expect(await db.knex('photosets').where({ path: 'set-down' }).first()).toBeUndefined();
    expect(existsSync(mediaRoot)).toBe(false);
    expect(await readdir(scratch)).toEqual([]);
  });
});
