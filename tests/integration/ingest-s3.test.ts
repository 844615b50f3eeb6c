import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readdir, readFile, rm, mkdtemp, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@media-site/media-service/config';
import { startMedia, type RunningMedia } from '@media-site/media-service/server';
import { S3Originals } from '@media-site/storage';
import { startTestS3, type TestS3 } from '@media-site/storage/testing-s3';
import { raw } from '@media-site/media-service/testing';
import { parseKeyRing, signDownloadUrl } from '@media-site/contracts/token';
import { ingestFolder, type IngestReport } from '../../ops/src/ingest/ingest';
import { loadCliConfig } from '@media-site/ops/cli';
import { createTestDb, type TestDb } from '@media-site/db/testing';
import { buildIngestFolder, VALID_ITEMS } from '../../ops/src/test/fixtures-ingest/build';

// A port no other test file uses, as test files run in parallel; the media-service S3 test uses 32100
// (fixed ports: 32000-32767, below the ephemeral range and above the random ones).
const S3_PORT = 32101;
const NO_FFMPEG = { ffmpeg: '/nonexistent/ffmpeg', ffprobe: '/nonexistent/ffprobe' };
const KEYS = 'k1:ingest-s3-test-secret-value';

let s3: TestS3;
let store: S3Originals;
let db: TestDb;
let source: string;
let mediaRoot: string;
let first: IngestReport;
let second: IngestReport;

beforeAll(async () => {
  s3 = await startTestS3(S3_PORT);
  store = new S3Originals(s3.settings);
  source = await buildIngestFolder();
  mediaRoot = await mkdtemp(join(tmpdir(), 'ingest-s3-media-'));
  // The storage is independent of the database engine: the embedded one is enough here.
  db = await createTestDb('sqlite');
  first = await ingestFolder({ knex: db.knex, folder: source, mediaRoot, ffmpeg: NO_FFMPEG, originals: store });
  second = await ingestFolder({ knex: db.knex, folder: source, mediaRoot, ffmpeg: NO_FFMPEG, originals: store });
}, 120_000);

afterAll(async () => {
  await db?.destroy();
  store?.close();
  await s3?.stop();
  for (const dir of [source, mediaRoot]) if (dir) await rm(dir, { recursive: true, force: true });
});

describe('ingest with STORAGE=s3', () => {
  it('uploads every photo and free photo original with its size and mtime, and writes nothing under MEDIA_ROOT', async () => {
    expect(first.failed).toEqual([]);
    const rows: { path: string; filename: string }[] = await db
      .knex('photoset_files')
      .join('photosets', 'photosets.id', 'photoset_files.photoset_id')
      .select('photosets.path', 'photoset_files.filename');
    const free: { path: string; filename: string }[] = await db
      .knex('freephotoset_files')
      .join('freephotosets', 'freephotosets.id', 'freephotoset_files.freephotoset_id')
      .select('freephotosets.path', 'freephotoset_files.filename');
    expect(rows.length).toBeGreaterThan(0);
    expect(free.length).toBeGreaterThan(0);
    for (const [family, list] of [
      ['photos', rows],
      ['freephotos', free],
    ] as const) {
      for (const { path, filename } of list) {
        const src = await stat(join(source, family, path, filename));
        expect(await store.head(`${family}/${path}/${filename}`)).toEqual({
          relative: `${family}/${path}/${filename}`,
          size: src.size,
          mtimeMs: Math.round(src.mtimeMs),
        });
      }
    }
    // Derived files go to the bucket too: the cover and one thumbnail per image.
    for (const { path, filename } of rows) expect((await store.head(`photosthumbs/${path}/${filename}`))?.size).toBeGreaterThan(0);
    for (const path of VALID_ITEMS.photos) expect((await store.head(`photosthumbs/${path}/large.jpg`))?.size).toBeGreaterThan(0);
    expect(await readdir(mediaRoot)).toEqual([]);
  });

  it('uploads video and VOD originals under their download names (no local copy: the encoder downloads them)', async () => {
    for (const family of ['video', 'vod'] as const) {
      for (const path of VALID_ITEMS[family]) {
        const [clip] = (await readdir(join(source, family, path))).filter((n) => n.endsWith('.mp4'));
        const [there, more] = await store.list(`${family}/${path}/`);
        expect(more).toBeUndefined();
        expect(there?.size).toBe((await stat(join(source, family, path, String(clip)))).size);
      }
    }
  });

  it('a rerun uploads nothing', () => {
    expect(second.filesWritten).toBe(0);
    expect(second.failed).toEqual([]);
  });

  it('the media service then serves an ingested photo from the bucket (302 to a presigned URL, Range at the bucket)', async () => {
    let media: RunningMedia | undefined;
    try {
      media = await startMedia(
        loadConfig({
          MEDIA_ROOT: mediaRoot,
          VARIANT_CACHE_DIR: join(mediaRoot, '..', `${mediaRoot.split('/').pop()}-variants`),
          MEDIA_PORT: '0',
          LOG_LEVEL: 'silent',
          MEDIA_TOKEN_KEYS: KEYS,
          ...s3.env,
        }),
      );
      const path = '/members/photos/set-alpha/a1.jpg';
      const url = signDownloadUrl(parseKeyRing(KEYS), { path, memberId: 3, expiresAt: Math.floor(Date.now() / 1000) + 600 });
      const res = await raw(media.url, url);
      expect(res.status).toBe(302);
      const location = new URL(String(res.headers.location));
      const part = await raw(location.origin, location.pathname + location.search, { Range: 'bytes=0-99' });
      expect(part.status).toBe(206);
      expect(part.body.equals((await readFile(join(source, 'photos/set-alpha/a1.jpg'))).subarray(0, 100))).toBe(true);
    } finally {
      await media?.close();
      await rm(join(mediaRoot, '..', `${mediaRoot.split('/').pop()}-variants`), { recursive: true, force: true });
    }
  });

  it('the catalog commands read STORAGE and the S3 settings, and name what is missing', () => {
    expect(loadCliConfig({}).storage).toBeNull();
    expect(loadCliConfig(s3.env).storage).toMatchObject({ bucket: s3.bucket, endpoint: s3.endpoint, forcePathStyle: true });
    expect(() => loadCliConfig({ STORAGE: 's3', DATABASE_URL: 'sqlite::memory:' })).toThrow(/S3_BUCKET: required when STORAGE=s3/);
    expect(() => loadCliConfig({ STORAGE: 's3', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'x' })).toThrow(/set both, or neither/);
    expect(() => loadCliConfig({ STORAGE: 'ftp' })).toThrow(/STORAGE/);
  });

  it('beside npm start with STORAGE=s3, the commands find its local bucket through the data folder, as they find its database', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cli-local-s3-'));
    try {
      const env = { STORAGE: 's3', DATA_DIR: dataDir };
      // Nothing running on this data folder: said in words, with what to do.
      expect(() => loadCliConfig(env)).toThrow(/no npm start with STORAGE=s3 is running on this data folder .*local-s3\.json/);
      // What npm start records while its local S3 server runs (the pid: a live process).
      const record = join(dataDir, 'local-s3.json');
      writeFileSync(record, JSON.stringify({ endpoint: s3.endpoint, bucket: s3.bucket, pid: process.pid }));
      expect(loadCliConfig(env).storage).toMatchObject({ bucket: s3.bucket, endpoint: s3.endpoint, forcePathStyle: true });
      // A record left by a run that was killed (its process gone) is not followed.
      const gone = spawnSync(process.execPath, ['-e', '0']).pid;
      writeFileSync(record, JSON.stringify({ endpoint: s3.endpoint, bucket: s3.bucket, pid: gone }));
      expect(() => loadCliConfig(env)).toThrow(/no npm start with STORAGE=s3 is running/);
      // Another database, or an endpoint of its own: the record is not this run's business.
      expect(() => loadCliConfig({ ...env, DATABASE_URL: 'sqlite::memory:' })).toThrow(/S3_BUCKET: required/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
