import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloudFrontOriginals, S3Originals } from '@media-site/storage';
import { repoRoot } from '../../scripts/lib/site';
import { s3Origin, startCloudFrontEdge, type RunningEdge } from '../src/cloudfront-edge';
import { freePort } from '../src/nginx';
import { ComposeProject, composeTestEnabled, generatedSecrets, must, waitFor, writeEnvFile } from './compose';
import { buildIngestFolder, ingestIn, mysqlIn, signInThrough, tearDown, type IngestClip } from './site';

// The multi-host shape (docker-compose.multihost.yml) for real, on Docker with the stand-in images
// (tools/compose-sim): two app hosts (nginx, bff, media service, encoder, follower each), a MariaDB
// primary and replica, Redis with a replica and three sentinels, the stand-in bucket. Ingest, the
// encode on either host, a member's Range play and download through the bucket and the set ZIP on
// both front doors, a takedown on both, then Redis's replica and master killed, with figures.
// Runs only with COMPOSE_TEST=1 (.ci/run sets it).

const FILE = 'docker-compose.multihost.yml';
const HOSTS = ['a', 'b'] as const;
const APP = HOSTS.flatMap((h) => [`nginx-${h}`, `bff-${h}`, `media-${h}`]);
const BACKENDS = ['mysql', 'mysql-replica', 'redis', 'redis-replica', 's3'];
const CLIPS: IngestClip[] = [
  { path: 'clip-one', file: 'V001_ModelC1_ComposeClip001.mpg', title: 'Compose Clip' },
  { path: 'clip-two', file: 'V002_ModelC1_ComposeClipTwo001.mpg', title: 'Compose Clip Two' },
];
const MEMBER = { username: 'multihost', password: 'multihost-member-pass-1' };
// docs/security.md, "takedown bounds": within 15 s on every front door.
const TAKEDOWN_BOUND_MS = 15_000;

let project: ComposeProject;
// The stand-in CDN edge (tests/src/cloudfront-edge.ts) in front of the stack's bucket; the bffs' purge
// worker posts to it through the network's gateway.
let edge: RunningEdge;
let edgeSigner: CloudFrontOriginals;
const KEY_PAIR_ID = 'K2MULTIHOSTEDGE1';
let ingestDir = '';
const ports = { a: 0, b: 0, s3: 0, prometheus: 0 };
let started = false;
/** Each clip's first rendition file, from its encode manifest. */
const renditions = new Map<string, string>();
const requireStarted = () => {
  if (!started) throw new Error('the stack did not start (see the earlier failure)');
};
const front = (host: (typeof HOSTS)[number]) => `http://127.0.0.1:${ports[host]}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const mysql = (sql: string, service = 'mysql') => mysqlIn(project, sql, service);

const operator = (args: string[], input?: string) =>
  must(project.compose(['run', '--rm', '-T', 'operator', ...args], { input, timeoutMs: 180_000 }), args.join(' '));

/** GET without following redirects. */
const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers, redirect: 'manual' });

/** The member's bytes of `path` through a front door: the media service's 302, then the bucket. */
async function throughBucket(base: string, path: string, cookie: string, headers: Record<string, string> = {}) {
  const first = await get(`${base}${path}`, { Cookie: cookie, ...headers });
  if (first.status !== 302) return { first: first.status, status: first.status, location: '', disposition: '', body: Buffer.alloc(0) };
  const location = first.headers.get('location') ?? '';
  const res = await get(location, headers);
  return {
    first: 302,
    status: res.status,
    location,
    disposition: res.headers.get('content-disposition') ?? '',
    body: Buffer.from(await res.arrayBuffer()),
  };
}

/** Subscribers of the generation channel on a Redis node (bffs and followers: 2 per host). */
async function subscribers(service: string): Promise<number> {
  const out = await must(
    project.compose(['exec', '-T', service, 'redis-cli', 'pubsub', 'numsub', 'media:catalog:generation'], { timeoutMs: 20_000 }),
    'numsub',
  );
  return Number(out.trim().split('\n')[1] ?? 0);
}
const SUBSCRIBERS = 2 * HOSTS.length;

const sentinelMaster = async (): Promise<string> =>
  (
    await must(
      project.compose(['exec', '-T', 'sentinel-1', 'redis-cli', '-p', '26379', 'sentinel', 'get-master-addr-by-name', 'media']),
      'sentinel',
    )
  )
    .trim()
    .split('\n')[0] ?? '';

/** Requests a member makes, through both front doors, until `stop()`; counts what failed. */
function traffic(cookie: string) {
  let running = true;
  const counts = { requests: 0, errors: 0, samples: [] as string[] };
  const loop = (async () => {
    while (running) {
      for (const host of HOSTS) {
        for (const path of ['/api/videos/1', '/api/me', `/api/search/compose${counts.requests % 7}`]) {
          counts.requests += 1;
          const status = await get(`${front(host)}${path}`, { Cookie: cookie }).then(
            (r) => r.status,
            () => 0,
          );
          if (status !== 200) {
            counts.errors += 1;
            if (counts.samples.length < 5) counts.samples.push(`${host} ${path} ${status}`);
          }
        }
      }
      await sleep(100);
    }
  })();
  return {
    counts,
    stop: async () => {
      running = false;
      await loop;
      return counts;
    },
  };
}

describe.skipIf(!composeTestEnabled)('docker-compose.multihost.yml, two hosts', () => {
  let cookie = '';
  beforeAll(async () => {
    ports.a = await freePort();
    ports.b = await freePort();
    ports.s3 = await freePort();
    ports.prometheus = await freePort();
    const store = new S3Originals({
      endpoint: `http://127.0.0.1:${ports.s3}`,
      bucket: 'media',
      region: 'us-east-1',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
      presignSeconds: 60,
    });
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    edge = await startCloudFrontEdge({
      trustedKeys: { [KEY_PAIR_ID]: publicKey.export({ type: 'spki', format: 'pem' }).toString() },
      minTtl: 3600,
      host: '0.0.0.0',
      port: await freePort(),
      origin: s3Origin((key, forward) =>
        store.presign(key, {
          method: 'GET',
          type: forward.get('response-content-type') ?? 'application/octet-stream',
          cacheControl: 'no-cache',
        }),
      ),
    });
    edgeSigner = new CloudFrontOriginals(store, {
      baseUrl: edge.url,
      keyPairId: KEY_PAIR_ID,
      privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    });
    // The network as the file has it (its MULTIHOST_* defaults): the edge on this machine is reached
    // through the network's gateway.
    const gateway = /\$\{MULTIHOST_GATEWAY:-([\d.]+)\}/.exec(await readFile(join(repoRoot, FILE), 'utf8'))?.[1];
    if (!gateway) throw new Error(`${FILE} names no default MULTIHOST_GATEWAY`);
    // docs/deploy.md, "The multi-host stack": `.env.example` with the REQUIRED block,
    // DB_REPLICATION_PASSWORD and BUCKET_NODE_ENV=development (the stand-in bucket's fixed keys)...
    const documented = {
      ...generatedSecrets(),
      DB_REPLICATION_PASSWORD: randomBytes(24).toString('hex'),
      CCBILL_CLIENT_ACCNUM: '951234',
      CCBILL_CLIENT_SUBACC: '1',
      CCBILL_FRONTEND_APP_ID: `multihost-${randomBytes(4).toString('hex')}`,
      CCBILL_FRONTEND_SECRET: randomBytes(32).toString('hex'),
      CCBILL_BACKEND_APP_ID: `multihost-${randomBytes(4).toString('hex')}`,
      CCBILL_BACKEND_SECRET: randomBytes(32).toString('hex'),
      BUCKET_NODE_ENV: 'development',
    };
    // ...then what this machine needs: free ports, the single-host suite's stand-in images (built
    // once, shared) and the stand-in CDN edge's purges, sooner than the default 12 s.
    const machine = {
      PORT: String(ports.a),
      PORT_B: String(ports.b),
      S3_PORT: String(ports.s3),
      S3_PUBLIC_ENDPOINT: `http://127.0.0.1:${ports.s3}`,
      IMAGE_PREFIX: 'media-site-compose-test',
      BUILD_NETWORK: 'host',
      PURGE_WEBHOOK_URL: `http://${gateway}:${new URL(edge.url).port}/purge`,
      PURGE_DELAY_MS: '1000',
      PROMETHEUS_PORT: String(ports.prometheus),
    };
    const example = await readFile(join(repoRoot, '.env.example'), 'utf8');
    project = new ComposeProject('mscomposemultihost', [FILE], await writeEnvFile({ ...documented, ...machine }, example), ports.a);
    await project.compose(['--profile', 'monitoring', 'down', '-v', '--remove-orphans'], { timeoutMs: 120_000 });
    ingestDir = await buildIngestFolder(CLIPS);
  });
  afterAll(async () => {
    await tearDown(project, ingestDir);
    await edge?.close();
  });

  it('builds, starts, and every service of both hosts turns healthy', async () => {
    await must(project.compose(['--profile', 'tools', 'build'], { timeoutMs: 1_500_000 }), 'compose build');
    await must(project.compose(['up', '-d'], { timeoutMs: 600_000 }), 'compose up');
    await project.waitHealthy([...BACKENDS, ...APP], 300_000);
    started = true;
    // The replica replays the primary's migrations.
    await waitFor(
      async () => (await mysql('select count(*) from media_jobs', 'mysql-replica')) === '0',
      30_000,
      () => 'the migrations on the replica',
    );
    expect(await mysql("show status like 'Slave_running'", 'mysql-replica')).toBe('Slave_running\tON');
    expect(await sentinelMaster()).toBe('redis');
    await waitFor(
      async () => (await subscribers('redis')) >= SUBSCRIBERS,
      60_000,
      () => 'every bff and follower subscribed',
    );
  }, 2_200_000);

  it('shares no volume between app containers of two hosts (each volume: one host, or one backend)', async () => {
    requireStarted();
    const users = new Map<string, string[]>();
    for (const service of [...BACKENDS, ...APP, ...HOSTS.flatMap((h) => [`follower-${h}`, `encoder-${h}`])]) {
      const volumes = await project.inspect(service, '{{range .Mounts}}{{if eq .Type "volume"}}{{.Name}} {{end}}{{end}}');
      for (const v of volumes.split(' ').filter(Boolean)) users.set(v, [...(users.get(v) ?? []), service]);
    }
    const hostOf = (service: string) => /-(a|b)$/.exec(service)?.[1] ?? service;
    for (const [volume, services] of users) expect(new Set(services.map(hostOf)).size, `${volume}: ${services.join(', ')}`).toBe(1);
    console.info(`multihost: volumes ${JSON.stringify(Object.fromEntries(users))}`);
  });

  it('ingests two videos into the bucket, and the encoders of both hosts make their renditions', async () => {
    requireStarted();
    const out = await ingestIn(project, ingestDir);
    expect(out).toMatch(/3 added/);
    const started = Date.now();
    let rows = '';
    await waitFor(
      async () => {
        rows = await mysql("select path, status, claim from media_jobs where content_type = 'video' order by path");
        return rows.split('\n').filter((r) => /\tdone\t/.test(r)).length === CLIPS.length;
      },
      240_000,
      () => `both encode jobs done (last: ${rows})`,
    );
    // Each encoder's summary line ("encoder idle: N encoded", printed even with --quiet once it has worked).
    const encoded: Record<string, number> = {};
    await waitFor(
      async () => {
        for (const h of HOSTS) {
          const logs = await must(project.compose(['logs', '--no-color', `encoder-${h}`]), 'encoder logs');
          encoded[`encoder-${h}`] = [...logs.matchAll(/encoder idle: (\d+) encoded/g)].map((m) => Number(m[1])).at(-1) ?? 0;
        }
        return Object.values(encoded).reduce((a, b) => a + b, 0) === CLIPS.length;
      },
      30_000,
      () => `the encoders' summary lines (${JSON.stringify(encoded)})`,
    );
    console.info(`multihost: ${CLIPS.length} clips encoded in ${Date.now() - started} ms, by ${JSON.stringify(encoded)}`);
    for (const clip of CLIPS) {
      const file = await mysql(
        `select json_unquote(json_extract(manifest, '$.renditions[0].file')) from media_jobs where path = '${clip.path}'`,
      );
      expect(file, clip.path).toMatch(/^\d+p\.mp4$/);
      renditions.set(clip.path, file);
    }
  }, 300_000);

  it('a member plays (Range) and downloads a video through the bucket on both front doors', async () => {
    requireStarted();
    await operator(['ops', 'members', 'add', MEMBER.username, '--password-stdin', '--days', '30'], `${MEMBER.password}\n`);
    const original = await readFile(join(ingestDir, 'video', CLIPS[0]!.path, 'clip.mp4'));
    for (const host of HOSTS) {
      cookie = await signInThrough(front(host), MEMBER);
      const path = `/members/video/${CLIPS[0]!.path}/${CLIPS[0]!.file}`;
      const range = await throughBucket(front(host), path, cookie, { Range: 'bytes=100-1123' });
      expect(range.first, host).toBe(302);
      expect(range.location.startsWith(`http://127.0.0.1:${ports.s3}/`), range.location).toBe(true);
      expect(range.status).toBe(206);
      expect(range.body.equals(original.subarray(100, 1124))).toBe(true);
      for (const clip of CLIPS) {
        const rendition = await throughBucket(front(host), `/members/videorenditions/${clip.path}/${renditions.get(clip.path)}`, cookie, {
          Range: 'bytes=0-99',
        });
        expect(`${host} ${clip.path} ${rendition.first} ${rendition.status}`).toBe(`${host} ${clip.path} 302 206`);
      }
      const link = await fetch(`${front(host)}/api/download-link?path=${encodeURIComponent(path)}`, { headers: { Cookie: cookie } });
      expect(link.status, host).toBe(200);
      const { url } = (await link.json()) as { url: string };
      const download = await throughBucket(front(host), url, cookie);
      expect(download.status).toBe(200);
      expect(download.disposition).toMatch(/^attachment; .*filename\*=UTF-8''/);
      expect(download.body.equals(original)).toBe(true);
      expect((await get(`${front(host)}${path}`)).status).toBe(401);
    }
  });

  it("serves ingest's thumbnails from the bucket on both front doors", async () => {
    requireStarted();
    for (const host of HOSTS) {
      for (const path of [`/members/videothumbs/${CLIPS[0]!.path}/${CLIPS[0]!.path}_02.jpg`, '/members/photosthumbs/set-one/large.jpg']) {
        const res = await get(`${front(host)}${path}`);
        expect(`${host} ${path} ${res.status} ${res.headers.get('content-type')}`).toMatch(/ 200 image\//);
      }
    }
  });

  it('gives the set ZIP from the bucket on both front doors', async () => {
    requireStarted();
    const zips: Buffer[] = [];
    for (const host of HOSTS) {
      const res = await get(`${front(host)}/members/photos/set-one/set-one.zip`, { Cookie: cookie });
      expect(res.status, host).toBe(200);
      zips.push(Buffer.from(await res.arrayBuffer()));
    }
    expect(zips[0]!.subarray(0, 4).toString('hex')).toBe('504b0304');
    expect(zips[0]!.equals(zips[1]!)).toBe(true);
  });

  it('honours a takedown on both front doors within the bound, and a restore', async () => {
    requireStarted();
    const path = `/members/video/${CLIPS[1]!.path}/${CLIPS[1]!.file}`;
    const codes = () => Promise.all(HOSTS.map(async (h) => (await get(`${front(h)}${path}`, { Cookie: cookie })).status));
    expect(await codes()).toEqual([302, 302]);
    // The edge holds the original (a miss, then a hit).
    const key = `video/${CLIPS[1]!.path}/${CLIPS[1]!.file}`;
    const edgeUrl = await edgeSigner.presign(key, { method: 'GET', type: 'video/mpeg', cacheControl: 'no-cache' });
    for (const expected of ['Miss from cloudfront', 'Hit from cloudfront']) {
      const res = await fetch(edgeUrl);
      await res.arrayBuffer();
      expect(`${res.status} ${res.headers.get('x-cache')}`).toBe(`200 ${expected}`);
    }
    const held = () => edge.keys().some((k) => k.includes(`/${CLIPS[1]!.path}/`));
    expect(held()).toBe(true);
    const started = Date.now();
    await operator(['ops', 'takedown', `/video/${CLIPS[1]!.path}`, '--by', 'test', '--reason', 'multi-host test']);
    const reached: Record<string, number> = {};
    while (Object.keys(reached).length < HOSTS.length && Date.now() - started < TAKEDOWN_BOUND_MS + 10_000) {
      (await codes()).forEach((c, i) => {
        if (c === 410 && reached[HOSTS[i]!] === undefined) reached[HOSTS[i]!] = Date.now() - started;
      });
      await sleep(200);
    }
    console.info(
      `multihost: takedown refused (410) after ${HOSTS.map((h) => `host ${h} ${reached[h]} ms`).join(', ')} (the command's container start included)`,
    );
    expect(await codes()).toEqual([410, 410]);
    for (const h of HOSTS) expect(reached[h]).toBeLessThan(TAKEDOWN_BOUND_MS + 10_000);
    await waitFor(
      async () => !held(),
      30_000,
      () => `the purge at the edge (purges: ${JSON.stringify(edge.purges)})`,
      200,
    );
    console.info(`multihost: the edge dropped the taken-down original after ${Date.now() - started} ms (PURGE_DELAY_MS 1000)`);
    await operator(['ops', 'restore', `/video/${CLIPS[1]!.path}`, '--by', 'test', '--reason', 'multi-host test']);
    await waitFor(
      async () => (await codes()).every((c) => c === 302),
      TAKEDOWN_BOUND_MS + 10_000,
      () => 'the restore on both hosts',
    );
  }, 120_000);

  it('loses no request when the Redis replica is killed', async () => {
    requireStarted();
    const load = traffic(cookie);
    await sleep(1000);
    await must(project.compose(['kill', 'redis-replica']), 'kill redis-replica');
    await sleep(8000);
    const counts = await load.stop();
    console.info(
      `multihost: Redis replica killed: ${counts.errors} errors in ${counts.requests} requests ${JSON.stringify(counts.samples)}`,
    );
    await must(project.compose(['start', 'redis-replica']), 'start redis-replica');
    await project.waitHealthy(['redis-replica'], 60_000);
    // Back as the master's replica before the master is killed.
    await waitFor(
      async () =>
        /master_link_status:up/.test(
          await must(project.compose(['exec', '-T', 'redis-replica', 'redis-cli', 'info', 'replication']), 'info'),
        ),
      60_000,
      () => 'the replica linked again',
    );
    expect(counts.errors).toBe(0);
  }, 120_000);

  it('fails over when the Redis master is killed: the sentinels promote the replica, the bffs follow', async () => {
    requireStarted();
    const load = traffic(cookie);
    await sleep(1000);
    const killed = Date.now();
    await must(project.compose(['kill', 'redis']), 'kill redis');
    let promoted = 0;
    await waitFor(
      async () => {
        if ((await sentinelMaster()) !== 'redis-replica') return false;
        promoted = Date.now() - killed;
        return true;
      },
      60_000,
      () => 'the sentinels to name redis-replica',
      250,
    );
    let last = 0;
    await waitFor(
      async () => (last = await subscribers('redis-replica')) >= SUBSCRIBERS,
      60_000,
      () => `every bff and follower subscribed on the promoted master (last: ${last} of ${SUBSCRIBERS})`,
      250,
    );
    const followed = Date.now() - killed;
    // A change published after the failover still reaches both front doors (the bffs and followers resubscribed).
    const path = `/members/video/${CLIPS[0]!.path}/${CLIPS[0]!.file}`;
    const changeStarted = Date.now();
    await operator(['ops', 'takedown', `/video/${CLIPS[0]!.path}`, '--by', 'test', '--reason', 'after failover']);
    await waitFor(
      async () =>
        (await Promise.all(HOSTS.map(async (h) => (await get(`${front(h)}${path}`, { Cookie: cookie })).status))).every((c) => c === 410),
      TAKEDOWN_BOUND_MS + 10_000,
      () => 'the takedown after the failover on both hosts',
      200,
    );
    const change = Date.now() - changeStarted;
    const counts = await load.stop();
    console.info(
      `multihost: Redis master killed: promoted after ${promoted} ms, every bff and follower resubscribed on it after ${followed} ms, a takedown after it on both hosts in ${change} ms; ${counts.errors} errors in ${counts.requests} requests ${JSON.stringify(counts.samples)}`,
    );
    expect(counts.errors).toBe(0);
  }, 240_000);

  it('turns monitoring on with one line: one Prometheus scrapes every part of both hosts and the shared services', async () => {
    requireStarted();
    await must(project.compose(['--profile', 'monitoring', 'up', '-d'], { timeoutMs: 600_000 }), 'up --profile monitoring');
    const api = `http://127.0.0.1:${ports.prometheus}/api/v1`;
    const data = async <T>(path: string): Promise<T> => ((await (await fetch(`${api}${path}`)).json()) as { data: T }).data;
    const want = [
      ...['bff', 'media', 'encoder', 'front-follower', 'nginx'].flatMap((job) => HOSTS.map((host) => `${job}@${host}:up`)),
      'mysqld@primary:up',
      'mysqld@replica:up',
      'redis@:up',
      'redis@:up',
      'node@:up',
      'prometheus@:up',
    ].sort();
    let targets: string[] = [];
    await waitFor(
      async () => {
        const { activeTargets } = await data<{ activeTargets: Array<{ labels: Record<string, string>; health: string }> }>(
          '/targets',
        ).catch(() => ({
          activeTargets: [],
        }));
        targets = activeTargets.map((t) => `${t.labels.job}@${t.labels.host ?? t.labels.role ?? ''}:${t.health}`).sort();
        return JSON.stringify(targets) === JSON.stringify(want);
      },
      240_000,
      () => `every target of both hosts up (now: ${targets.join(' ')})`,
      1000,
    );
    const values = async (query: string) =>
      (await data<{ result: Array<{ value: [number, string] }> }>(`/query?query=${encodeURIComponent(query)}`)).result.map(
        (r) => r.value[1],
      );
    // The exporters read their engines: both front doors, both databases, both Redis servers (the
    // killed master is back since `up`, now the promoted one's replica). Each host's follower reports
    // the generation its nginx serves (FollowerBehind reads it).
    const readings = async () =>
      JSON.stringify(await Promise.all(['nginx_up', 'mysql_up', 'redis_up', 'count(follower_generation)'].map(values)));
    let read = '';
    await waitFor(
      async () => (read = await readings()) === JSON.stringify([['1', '1'], ['1', '1'], ['1', '1'], ['2']]),
      60_000,
      () => `nginx_up, mysql_up, redis_up 1 on both, two followers (now: ${read})`,
      1000,
    );
  }, 700_000);
});
