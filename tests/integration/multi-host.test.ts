import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { DEMO_MEMBER } from '@media-site/ops';
import { runOpsCaptured } from '@media-site/ops/cli';
import { createTestDb, grantVod, testBackends, testRedisUrl, type TestDb } from '@media-site/db/testing';
import { raw, type RawResponse } from '@media-site/media-service/testing/http';
import { S3Originals } from '@media-site/storage/s3';
import { startTestS3, type TestS3 } from '@media-site/storage/testing-s3';
import { loadFollowerConfig } from '@media-site/front-follower/config';
import { startFollower, type Follower } from '@media-site/front-follower/follow';
import { freePort, spawnTs, waitHealthy, type Child } from '../../scripts/lib/process';
import { repoRoot } from '../../scripts/lib/site';
import { startNginx, type RunningNginx } from '../src/nginx';
import { signInCookie } from '../src/sign-in';
import { startStack, type Stack } from '../src/stack';

// Two media hosts and two nginx hosts, each with its own EMPTY local
// folders, serve every media family from the bucket (STORAGE=s3) and honour a takedown.
// One MariaDB database and one Redis (shared by every host), s3rver as the bucket, the stack's bff
// (and its own local-tree media service, used only as the reference for the set ZIP's bytes).
// Each nginx host proxies /members to BOTH media services and keys its API cache on a
// catalog-generation folder of its own, kept by its own front-follower.
// The bucket is filled from the seeded demo tree (object by object with the storage layer's put,
// keys = media paths, mtimes kept); the demo has no renditions or previews (the encoder makes them),
// so this test places one of each, the rendition being a demo clip's bytes under `720p.mp4`.
const HOSTS = 2;
// docs/security.md "takedown bounds": the media service within MEDIA_TAKEDOWN_INTERVAL_S (1 s here),
// nginx's public cache within 15 s (entries fresh 5 s, then revalidated and replaced by the 410).
const TAKEDOWN_BOUND_MS = 15_000;
const LISTING_BOUND_MS = 15_000;
const redisUrl = testRedisUrl();
const mysql = testBackends().includes('mysql') && redisUrl !== undefined;
const prefix = `multihost-${process.pid}-${Date.now()}:`;

interface MediaHost {
  child: Child;
  url: string;
  root: string;
  variants: string;
}
interface NginxHost {
  name: string;
  nginx: RunningNginx;
  follower: Follower;
  generationDir: string;
  root: string;
}

let db: TestDb;
let stack: Stack;
let s3: TestS3;
let store: S3Originals;
let work: string;
const mediaHosts: MediaHost[] = [];
const hosts: NginxHost[] = [];
const lines: string[] = [];
let cookie = '';
/** The items this test serves and takes down: one of each type. */
const item = { photos: '', freephotos: '', video: '', vod: '' };
const files = { photo: '', thumb: '', free: '', videoThumb: '', vodThumb: '', video: '', vod: '' };

const filesUnder = (dir: string): string[] => {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => relative(dir, join(e.parentPath, e.name)));
  } catch {
    return [];
  }
};
/** The first name in a folder of the seeded tree (an item's folder, or a file of it). */
const first = (dir: string) => readdirSync(dir).sort()[0]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const get = (base: string, path: string, headers: Record<string, string> = {}, method = 'GET') =>
  raw(base, encodeURI(path), headers, method);
/** Follows a 302 to the bucket (a presigned URL, sent as given). */
const follow = (res: RawResponse, headers: Record<string, string> = {}) => {
  const url = new URL(String(res.headers.location));
  return raw(url.origin, url.pathname + url.search, headers);
};
const ops = (...argv: string[]) =>
  runOpsCaptured(argv, { env: { DATABASE_URL: db.url, MEDIA_ROOT: stack.mediaRoot, REDIS_URL: redisUrl, CACHE_KEY_PREFIX: prefix } });

/** Uploads every file under `root/dir` to the bucket as `dir/...` (the storage layer's putTree: mtimes kept). */
const upload = async (root: string, dir: string) => (await store.putTree(dir, join(root, dir))).length;

beforeAll(async () => {
  if (!mysql) return;
  db = await createTestDb('mysql');
  stack = await startStack({ frontDoor: 'nginx', databaseUrl: db.url, redisUrl, env: { CACHE_KEY_PREFIX: prefix } });
  work = mkdtempSync(join(tmpdir(), 'multi-host-'));
  s3 = await startTestS3(0);
  store = new S3Originals(s3.settings);

  // The bucket, from the seeded tree: the first item of each type, its thumbnails and originals.
  const tree = stack.mediaRoot;
  // The photo set: the first of the listing's first page, which the takedown must drop.
  item.photos = ((await (await fetch(`${stack.bffUrl}/api/photos/1`)).json()) as Array<{ path: string }>)[0]!.path;
  item.freephotos = first(join(tree, 'freephotos'));
  item.video = first(join(tree, 'video'));
  item.vod = first(join(tree, 'vod'));
  files.photo = first(join(tree, 'photos', item.photos));
  files.thumb = first(join(tree, 'photosthumbs', item.photos));
  files.free = first(join(tree, 'freephotos', item.freephotos));
  files.videoThumb = first(join(tree, 'videothumbs', item.video));
  files.vodThumb = first(join(tree, 'vodthumbs', item.vod));
  files.video = first(join(tree, 'video', item.video));
  files.vod = first(join(tree, 'vod', item.vod));
  let objects = 0;
  for (const dir of [
    `photos/${item.photos}`,
    `photosthumbs/${item.photos}`,
    `freephotos/${item.freephotos}`,
    `video/${item.video}`,
    `videothumbs/${item.video}`,
    `vod/${item.vod}`,
    `vodthumbs/${item.vod}`,
  ])
    objects += await upload(tree, dir);
  // What the encoder would make: a rendition and the previews (poster, sprite, its track) per clip.
  const made = join(work, 'made');
  const place = (rel: string, data: Buffer | string) => {
    mkdirSync(join(made, rel, '..'), { recursive: true });
    writeFileSync(join(made, rel), data);
    utimesSync(join(made, rel), new Date('2026-01-02T03:04:05Z'), new Date('2026-01-02T03:04:05Z'));
  };
  const thumbBytes = (family: string, path: string, name: string) => readFileSync(join(tree, family, path, name));
  for (const [type, path, thumb] of [
    ['video', item.video, thumbBytes('videothumbs', item.video, files.videoThumb)],
    ['vod', item.vod, thumbBytes('vodthumbs', item.vod, files.vodThumb)],
  ] as const) {
    place(`${type}renditions/${path}/720p.mp4`, readFileSync(join(tree, type, path, type === 'video' ? files.video : files.vod)));
    place(`${type}previews/${path}/poster.jpg`, thumb);
    place(`${type}previews/${path}/sprite.jpg`, thumb);
    place(`${type}previews/${path}/thumbs.vtt`, 'WEBVTT\n\n00:00.000 --> 00:05.000\nsprite.jpg#xywh=0,0,160,90\n');
  }
  for (const family of ['videorenditions', 'videopreviews', 'vodrenditions', 'vodpreviews'])
    for (const dir of readdirSync(join(made, family))) objects += await upload(made, `${family}/${dir}`);
  console.info(`multi-host: ${objects} objects placed in the bucket`);

  const onLine = (name: string, line: string) => lines.push(`[${name}] ${line}`);
  for (let i = 0; i < HOSTS; i += 1) {
    const port = await freePort();
    const host: MediaHost = {
      child: undefined as unknown as Child,
      url: `http://127.0.0.1:${port}`,
      root: join(work, `media-root-${i}`),
      variants: join(work, `variants-${i}`),
    };
    mkdirSync(host.root);
    host.child = spawnTs(
      `media${i}`,
      resolve(repoRoot, 'media-service/src/main.ts'),
      {
        ...process.env,
        ...s3.env,
        DATABASE_URL: db.url,
        REDIS_URL: redisUrl,
        CACHE_KEY_PREFIX: prefix,
        MEDIA_ROOT: host.root,
        VARIANT_CACHE_DIR: host.variants,
        MEDIA_PORT: String(port),
        MEDIA_OFFLOAD: 'nginx',
        MEDIA_REVOCATION_URL: `${stack.bffUrl}/internal/media-revocations`,
        MEDIA_TAKEDOWN_INTERVAL_S: '1',
        // No memory tier: the variant cache folder alone answers repeats, so deleting it shows.
        VARIANT_MEMORY_CACHE_BYTES: '0',
        LOG_LEVEL: 'warn',
      },
      onLine,
    );
    mediaHosts.push(host);
  }
  await Promise.all(mediaHosts.map((m) => waitHealthy(`${m.url}/readyz`, m.child, 60_000)));

  for (let i = 0; i < HOSTS; i += 1) {
    const generationDir = mkdtempSync(join(tmpdir(), 'front-gen-'));
    const root = join(work, `nginx-root-${i}`);
    mkdirSync(root);
    const follower = await startFollower(
      loadFollowerConfig({ DATABASE_URL: db.url, REDIS_URL: redisUrl, CACHE_KEY_PREFIX: prefix, FRONT_GENERATION_DIR: generationDir }),
      pino({ level: 'silent' }),
    );
    const nginx = await startNginx({
      bffUrl: stack.bffUrl,
      mediaUrl: mediaHosts.map((m) => m.url),
      spaDir: join(repoRoot, 'frontend/dist'),
      mediaRoot: root,
      workDir: join(work, `nginx-${i}`),
      catalogGenerationDir: generationDir,
      onLine: (line) => onLine(`nginx${i}`, line),
    });
    hosts.push({ name: `nginx${i}`, nginx, follower, generationDir, root });
  }

  // The demo member has a membership; a VOD is bought on its own: this one is theirs.
  const member = await db.knex('members').where({ username: DEMO_MEMBER.username }).first('id');
  const vod = await db.knex('vods').where({ path: item.vod }).first('id');
  await grantVod(db.knex, member.id, vod.id);
  cookie = await signInCookie(hosts[0]!.nginx.url);
}, 240_000);

afterAll(async () => {
  for (const host of hosts) {
    await host.nginx.stop();
    await host.follower.close();
    rmSync(host.generationDir, { recursive: true, force: true });
  }
  await Promise.all(mediaHosts.map((m) => m.child.stop()));
  store?.close();
  await s3?.stop();
  await stack?.stop();
  await db?.destroy();
  if (work) rmSync(work, { recursive: true, force: true });
  const errors = lines.filter((l) => /"level":(?:50|60)/.test(l));
  expect(errors, errors.join('\n')).toEqual([]);
});

/** One request per family for the four items: path, whether it needs the member cookie. */
const familyUrls = () => ({
  photosthumbs: { path: `/members/photosthumbs/${item.photos}/${files.thumb}`, member: false },
  'photosthumbs ?w=': { path: `/members/photosthumbs/${item.photos}/${files.thumb}?w=160`, member: false },
  videothumbs: { path: `/members/videothumbs/${item.video}/${files.videoThumb}`, member: false },
  vodthumbs: { path: `/members/vodthumbs/${item.vod}/${files.vodThumb}`, member: false },
  freephotos: { path: `/members/freephotos/${item.freephotos}/${files.free}`, member: false },
  photos: { path: `/members/photos/${item.photos}/${files.photo}`, member: true },
  'photos ZIP': { path: `/members/photos/${item.photos}/${item.photos}.zip`, member: true },
  video: { path: `/members/video/${item.video}/${files.video}`, member: true },
  vod: { path: `/members/vod/${item.vod}/${files.vod}`, member: true },
  videorenditions: { path: `/members/videorenditions/${item.video}/720p.mp4`, member: true },
  vodrenditions: { path: `/members/vodrenditions/${item.vod}/720p.mp4`, member: true },
  'videopreviews poster': { path: `/members/videopreviews/${item.video}/poster.jpg`, member: false },
  'videopreviews sprite': { path: `/members/videopreviews/${item.video}/sprite.jpg`, member: false },
  'videopreviews vtt': { path: `/members/videopreviews/${item.video}/thumbs.vtt`, member: false },
  'vodpreviews poster': { path: `/members/vodpreviews/${item.vod}/poster.jpg`, member: false },
});

/** Every family's answer code through one nginx host (the first hop: 200, 206 or 302 to the bucket). */
async function codes(base: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [name, { path, member }] of Object.entries(familyUrls()))
    out[name] = (await get(base, path, member ? { Cookie: cookie } : {})).status;
  return out;
}

describe.runIf(mysql)('two media hosts and two nginx hosts with empty local folders (STORAGE=s3)', () => {
  it('serve every family through each nginx host', async () => {
    for (const { name, nginx } of hosts) {
      const base = nginx.url;
      // Public thumbnails, a variant, a free photo, previews: streamed from the bucket.
      for (const [family, { path, member }] of Object.entries(familyUrls())) {
        if (member) continue;
        const res = await get(base, path);
        expect(res.status, `${name} ${family}`).toBe(200);
        expect(res.body.length, `${name} ${family}`).toBeGreaterThan(0);
      }
      const variant = await get(base, familyUrls()['photosthumbs ?w='].path, { Accept: 'image/webp' });
      expect(variant.headers['content-type']).toBe('image/webp');
      expect((await get(base, `/members/videopreviews/${item.video}/thumbs.vtt`)).body.toString()).toContain('WEBVTT');
      // Members: without the cookie 401; with it, the set page's photo and the player's file are in the bucket.
      expect((await get(base, familyUrls().photos.path)).status).toBe(401);
      const photo = await get(base, familyUrls().photos.path, { Cookie: cookie });
      const photoBytes = photo.status === 302 ? (await follow(photo)).body : photo.body;
      expect(photoBytes.subarray(0, 2).toString('hex'), name).toBe('ffd8');
      for (const family of ['videorenditions', 'vodrenditions'] as const) {
        const first = await get(base, familyUrls()[family].path, { Cookie: cookie, Range: 'bytes=100-199' });
        const part = first.status === 302 ? await follow(first, { Range: 'bytes=100-199' }) : first;
        expect(part.status, `${name} ${family}`).toBe(206);
        expect(part.body.length).toBe(100);
      }
    }
  });

  it('give a member original download (302 to the bucket, attachment, resumable) through each nginx host', async () => {
    const original = `/members/video/${item.video}/${files.video}`;
    const whole = readFileSync(join(stack.mediaRoot, 'video', item.video, files.video));
    for (const { name, nginx } of hosts) {
      const link = await fetch(`${nginx.url}/api/download-link?path=${encodeURIComponent(original)}`, { headers: { Cookie: cookie } });
      expect(link.status, name).toBe(200);
      const { url } = (await link.json()) as { url: string };
      const first = await raw(nginx.url, url);
      expect(first.status, name).toBe(302);
      expect(String(first.headers.location).startsWith(`${s3.endpoint}/${s3.bucket}/`), name).toBe(true);
      const body = await follow(first);
      expect(body.status).toBe(200);
      expect(String(body.headers['content-disposition'])).toMatch(/^attachment; .*filename\*=UTF-8''/);
      expect(body.body.equals(whole)).toBe(true);
      // Resumed: the rest from an offset, as a download manager asks after a cut.
      const from = Math.floor(whole.length / 2);
      const rest = await follow(first, { Range: `bytes=${from}-` });
      expect(rest.status).toBe(206);
      expect(rest.body.equals(whole.subarray(from))).toBe(true);
    }
  });

  it("give the set ZIP through each nginx host, byte for byte the local tree's", async () => {
    const zip = `/members/photos/${item.photos}/${item.photos}.zip`;
    const local = await get(stack.url, zip, { Cookie: cookie });
    expect(local.status).toBe(200);
    for (const { name, nginx } of hosts) {
      const res = await get(nginx.url, zip, { Cookie: cookie });
      expect(res.status, name).toBe(200);
      expect(res.body.subarray(0, 4).toString('hex')).toBe('504b0304');
      expect(res.body.length, name).toBe(local.body.length);
      expect(res.body.equals(local.body), name).toBe(true);
    }
  });

  it('keep variants in a deletable per-host cache: deleted, the variant is made again', async () => {
    const path = `/members/photosthumbs/${item.photos}/${files.thumb}?w=320`;
    for (const m of mediaHosts) {
      expect((await get(m.url, path, { Accept: 'image/webp' })).status).toBe(200);
      expect(filesUnder(m.variants).length).toBeGreaterThan(0);
      rmSync(m.variants, { recursive: true, force: true });
      const again = await get(m.url, path, { Accept: 'image/webp' });
      expect(again.status).toBe(200);
      expect(again.headers['content-type']).toBe('image/webp');
      await expect.poll(() => filesUnder(m.variants).length).toBeGreaterThan(0);
    }
  });

  it('honour a takedown on both nginx hosts within the documented bound, listings too, and a restore', async () => {
    // Every family served first. After a failed try's restore (a CI retry) nginx's cache may still
    // hold a 410 for up to 5 s: wait for the items to be served again, within the same bound.
    const served = (answers: Record<string, number>) => Object.values(answers).every((c) => c === 200 || c === 302);
    let before = await Promise.all(hosts.map((h) => codes(h.nginx.url)));
    for (const waitedFrom = Date.now(); !before.every(served) && Date.now() - waitedFrom < TAKEDOWN_BOUND_MS;) {
      await sleep(200);
      before = await Promise.all(hosts.map((h) => codes(h.nginx.url)));
    }
    console.info(`multi-host: answers before the takedown: ${JSON.stringify(before)}`);
    for (const answers of before) for (const [family, code] of Object.entries(answers)) expect([200, 302], family).toContain(code);
    const listing = '/api/photos/1';
    for (const { nginx } of hosts) expect((await get(nginx.url, listing)).body.toString()).toContain(`"${item.photos}"`);

    // Restored whatever happens below, so a retry (CI) starts from the items served again.
    const restore = async () => {
      for (const type of ['photos', 'freephotos', 'video', 'vod'] as const) {
        const back = await ops('restore', `/${type}/${item[type]}`, '--by', 'test', '--reason', 'multi-host test');
        expect(back.code, back.err).toBe(0);
      }
    };
    onTestFailed(async () => {
      await restore().catch(() => undefined);
    });
    for (const type of ['photos', 'freephotos', 'video', 'vod'] as const) {
      const down = await ops('takedown', `/${type}/${item[type]}`, '--by', 'test', '--reason', 'multi-host test');
      expect(down.code, down.err).toBe(0);
    }
    // The bound runs from the takedown: from the last of the four (each CLI call took up to 3 s on a
    // loaded CI machine, and counting from the first failed the VOD's thumbnail at 15 s).
    const started = Date.now();
    const refused = (answers: Record<string, number>) => Object.values(answers).every((c) => c === 410 || c === 404);
    let after: Record<string, number>[] = [];
    const reached: number[] = [];
    while (reached.length < HOSTS && Date.now() - started < TAKEDOWN_BOUND_MS) {
      after = await Promise.all(hosts.map((h) => codes(h.nginx.url)));
      after.forEach((a, i) => {
        if (reached[i] === undefined && refused(a)) reached[i] = Date.now() - started;
      });
      if (reached.filter((r) => r !== undefined).length < HOSTS) await sleep(200);
    }
    console.info(`multi-host: answers after the takedown: ${JSON.stringify(after)}`);
    console.info(`multi-host: every family refused after ${hosts.map((h, i) => `${h.name} ${reached[i]} ms`).join(', ')}`);
    // A family past the bound: how old each media service's lists are (a failed poll keeps the last
    // list), what nginx's cache said and what each media service answers now.
    if (after.some((answers) => !refused(answers)))
      for (const m of mediaHosts) console.info(`multi-host: ${m.url}/readyz ${(await get(m.url, '/readyz')).body.toString()}`);
    for (const line of lines.filter((l) => l.includes('list refresh failed'))) console.info(`multi-host: ${line}`);
    for (const [i, answers] of after.entries())
      for (const [family, code] of Object.entries(answers)) {
        if (code === 410) continue;
        const { path, member } = familyUrls()[family as keyof ReturnType<typeof familyUrls>];
        const headers: Record<string, string> = member ? { Cookie: cookie } : {};
        const front = await get(hosts[i]!.nginx.url, path, headers);
        const direct = await Promise.all(mediaHosts.map(async (m) => (await get(m.url, path, headers)).status));
        console.info(
          `multi-host: ${hosts[i]!.name} ${family} answered ${front.status} (X-Cache-Status ${String(front.headers['x-cache-status'])}); the media services ${JSON.stringify(direct)}`,
        );
        // Which upstream answered what, and when, for this path (the access log is flushed every second).
        await sleep(1100);
        const trail = readFileSync(join(work, `nginx-${i}`, 'access.log'), 'utf8')
          .split('\n')
          .filter((l) => l.includes(`"path":"${path.split('?')[0]}"`))
          .slice(-12);
        console.info(`multi-host: ${hosts[i]!.name} ${family} access log (last 12):\n${trail.join('\n')}`);
      }
    for (const [i, answers] of after.entries())
      expect(answers, hosts[i]!.name).toEqual(Object.fromEntries(Object.keys(answers).map((k) => [k, 410])));
    // The listings on both hosts drop the set (each host's follower moved its own generation link).
    for (const { nginx } of hosts)
      await expect
        .poll(async () => (await get(nginx.url, listing)).body.toString().includes(`"${item.photos}"`), { timeout: LISTING_BOUND_MS })
        .toBe(false);
    for (const { nginx } of hosts) expect((await get(nginx.url, `/api/freethumbnails/${item.freephotos}`)).status).toBe(404);

    await restore();
    for (const { nginx } of hosts) {
      await expect
        .poll(async () => Object.values(await codes(nginx.url)).every((c) => c === 200 || c === 302), { timeout: TAKEDOWN_BOUND_MS })
        .toBe(true);
      await expect
        .poll(async () => (await get(nginx.url, listing)).body.toString().includes(`"${item.photos}"`), { timeout: LISTING_BOUND_MS })
        .toBe(true);
    }
  });

  it('spread /members over both media services from each nginx host', async () => {
    // The access log (flushed every second) names the upstream that answered each request.
    const upstreams = (i: number) =>
      new Set(
        readFileSync(join(work, `nginx-${i}`, 'access.log'), 'utf8')
          .split('\n')
          .flatMap((l) => /"upstream":"([^"]+)"/.exec(l)?.[1]?.split(/[ ,]+/) ?? []),
      );
    const media = mediaHosts.map((m) => new URL(m.url).host);
    for (let i = 0; i < HOSTS; i += 1) await expect.poll(() => media.every((host) => upstreams(i).has(host)), { timeout: 5000 }).toBe(true);
  });

  it('wrote nothing to any media host or nginx host local folder', () => {
    for (const m of mediaHosts) expect(filesUnder(m.root), m.root).toEqual([]);
    for (const h of hosts) expect(filesUnder(h.root), h.root).toEqual([]);
  });
});
