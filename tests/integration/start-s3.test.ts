import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { videoDownloadName } from '@media-site/contracts/download-name';
import { createKnex } from '@media-site/db';
import { BUCKET_SEED_MARKER } from '@media-site/ops';
import { loadCliConfig, runOpsCaptured } from '@media-site/ops/cli';
import { S3Originals } from '@media-site/storage';
import { prepareData } from '../../scripts/lib/prepare';
import { startSite, type Site } from '../../scripts/lib/site';
import { startSiteStorage, type SiteStorage } from '../../scripts/lib/site-storage';
import { signInCookie } from '../src/sign-in';
import { seededTemplate } from '../src/stack';

// `npm start` with STORAGE=s3 and no S3_ENDPOINT: the local S3 server started for the run,
// the demo seed uploaded to it, and the site served from the bucket with MEDIA_ROOT never created.
let dir: string;
let storage: SiteStorage | null;
let site: Site;
let mediaRoot: string;
const seedLog: string[] = [];
const item = { set: '', photo: '', video: '', videoFile: '' };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'start-s3-'));
  mediaRoot = join(dir, 'media');
  const databaseUrl = `sqlite:${join(dir, 'catalog.sqlite')}`;
  storage = await startSiteStorage({ ...process.env, STORAGE: 's3', S3_ENDPOINT: '' }, dir, () => {});
  // The seed's scratch folder holds the already drawn tree (the suite's template), so the seed skips
  // drawing and only uploads: the same path as `npm start`, without 30 s of pictures.
  const scratchDir = join(dir, 'scratch');
  cpSync(join(await seededTemplate(() => {}), 'media'), scratchDir, { recursive: true, preserveTimestamps: true });
  await prepareData(databaseUrl, mediaRoot, (line) => seedLog.push(line), { storage: storage!.settings, scratchDir });
  expect(existsSync(scratchDir)).toBe(false);
  expect(existsSync(mediaRoot)).toBe(false);
  const knex = createKnex(databaseUrl);
  try {
    const set = await knex('photosets').orderBy('id').first('id', 'path');
    item.set = String(set.path);
    item.photo = String((await knex('photoset_files').where({ photoset_id: set.id, position: 1 }).first('filename')).filename);
    const video = await knex('videos').orderBy('id').first('path', 'prename');
    item.video = String(video.path);
    item.videoFile = videoDownloadName(String(video.prename));
  } finally {
    await knex.destroy();
  }
  site = await startSite({
    port: 0,
    dataDir: dir,
    databaseUrl,
    mediaRoot,
    frontDoor: 'auto',
    env: { LOG_LEVEL: 'warn', ...storage!.env },
    onLine: (name, line) => {
      if (process.env.STACK_LOG === '1') console.log(`[${name}] ${line}`);
    },
  });
}, 120_000);

afterAll(async () => {
  await site?.stop();
  await storage?.stop();
  // Stopped, the run takes its record with it.
  expect(existsSync(join(dir, 'local-s3.json'))).toBe(false);
  rmSync(dir, { recursive: true, force: true });
});

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${site.url}${encodeURI(path)}`, { headers, redirect: 'manual' });

describe('npm start with STORAGE=s3 and no S3_ENDPOINT', () => {
  it('started the local S3 server under DATA_DIR/s3 with its fixed keys, and the seed uploaded the demo tree', async () => {
    expect(storage?.local?.directory).toBe(join(dir, 's3'));
    expect(storage?.env).toMatchObject({ STORAGE: 's3', S3_ACCESS_KEY_ID: 'S3RVER', S3_FORCE_PATH_STYLE: 'true' });
    expect(seedLog.some((l) => /demo media uploaded to the bucket media: \d+ objects/.test(l))).toBe(true);
    const bucket = new S3Originals(storage!.settings);
    try {
      expect(await bucket.head(BUCKET_SEED_MARKER)).not.toBeNull();
      expect(await bucket.head(`photos/${item.set}/${item.photo}`)).not.toBeNull();
    } finally {
      bucket.close();
    }
  });

  it('records the local server in the data folder, so an operator command beside it finds the bucket with only STORAGE=s3', async () => {
    const record = JSON.parse(readFileSync(join(dir, 'local-s3.json'), 'utf8')) as { endpoint: string; bucket: string; pid: number };
    expect(record).toEqual({ endpoint: storage!.local!.endpoint, bucket: 'media', pid: storage!.local!.child.proc.pid });
    const env = { STORAGE: 's3', DATA_DIR: dir, DATABASE_URL: '' };
    expect(loadCliConfig(env).storage).toMatchObject({ endpoint: storage!.local!.endpoint, bucket: 'media' });
    const jobs = await runOpsCaptured(['jobs'], { env });
    expect(jobs.code, jobs.err).toBe(0);
  });

  it('refuses to start the local S3 server (fixed keys) with NODE_ENV=production', async () => {
    await expect(startSiteStorage({ STORAGE: 's3', NODE_ENV: 'production' }, dir, () => {})).rejects.toThrow(
      /without S3_ENDPOINT starts the local S3 server, whose keys are fixed .*refused with NODE_ENV=production/,
    );
  });

  it('a second run finds the marker and uploads nothing', async () => {
    const again: string[] = [];
    await prepareData(`sqlite:${join(dir, 'catalog.sqlite')}`, mediaRoot, (line) => again.push(line), {
      storage: storage!.settings,
      scratchDir: join(dir, 'scratch'),
    });
    expect(again.filter((l) => /uploaded|written|queued/.test(l))).toEqual([]);
    expect(existsSync(join(dir, 'scratch'))).toBe(false);
  });

  it('serves a thumbnail, a member video (302 to a presigned URL) and a set ZIP through the front door', async () => {
    // The browser may fetch from the bucket after the 302: nginx's CSP names its origin.
    if (site.frontDoor === 'nginx') {
      const csp = String((await get('/')).headers.get('content-security-policy'));
      expect(csp).toContain(`media-src 'self' ${storage!.local!.endpoint};`);
      expect(csp).toContain(`img-src 'self' data: ${storage!.local!.endpoint};`);
    }
    const thumb = await get(`/members/photosthumbs/${item.set}/large.jpg`);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/jpeg');
    expect((await thumb.arrayBuffer()).byteLength).toBeGreaterThan(1000);

    const cookie = await signInCookie(site.url);
    const video = await get(`/members/video/${item.video}/${item.videoFile}`, { Cookie: cookie });
    expect(video.status).toBe(302);
    const location = String(video.headers.get('location'));
    expect(location.startsWith(`${storage!.local!.endpoint}/media/video/`)).toBe(true);
    expect(location).toContain('X-Amz-Signature=');
    const bytes = await fetch(location);
    expect(bytes.status).toBe(200);
    expect((await bytes.arrayBuffer()).byteLength).toBeGreaterThan(10_000);

    const zip = await get(`/members/photos/${item.set}/${item.set}.zip`, { Cookie: cookie });
    expect(zip.status).toBe(200);
    const body = Buffer.from(await zip.arrayBuffer());
    expect(body.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
    expect(body.length).toBeGreaterThan(10_000);

    // Nothing was ever written under MEDIA_ROOT (the site made it, empty: the media service resolves it at start).
    expect(readdirSync(mediaRoot)).toEqual([]);
  });
});
