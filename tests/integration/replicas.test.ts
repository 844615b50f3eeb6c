import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_MEMBER } from '@media-site/ops';
import { createTestDb, testBackends, testRedisUrl, type TestDb } from '@media-site/db/testing';
import { runOpsCommand } from '../../ops/src/commands/registry';
import { buildFrontendIfNeeded, prepareData } from '../../scripts/lib/prepare';
import { freePort, spawnTs, waitHealthy, type Child } from '../../scripts/lib/process';
import { repoRoot, simulatorEntry } from '../../scripts/lib/site';
import { startNginx, type RunningNginx } from '../src/nginx';
import { payMembership } from '../reliability/lib/payment';
import { raw } from '@media-site/media-service/testing/http';

// The site as it runs past one box: two bffs and two media services behind one nginx (the
// repo's template, both replicas in each upstream) on one MariaDB and one Redis. What must hold
// across replicas: a catalog change reaches both bffs and the front door; a session made on one bff
// works on the other (and its media cookie on either media service); a takedown makes both media
// services answer 410; the same webhook to both bffs at once is stored once; one payment token sent
// to both bffs at once is charged once.
const REPLICAS = 2;
// The bound this test holds a catalog change to on its way to every replica (pub/sub over Redis: tens of ms).
const COHERENCE_MS = 1000;
// A takedown reaches the media services within one MEDIA_TAKEDOWN_INTERVAL_S (1 s here) and a bit.
const TAKEDOWN_MS = 5000;
const EDGE_SECRET = 'replica-edge-secret-0123456789';
const mysql = testBackends().includes('mysql') && testRedisUrl() !== undefined;

interface Service {
  child: Child;
  url: string;
}

/** Polls until `check` holds; returns the milliseconds it took, or fails after `bound`. */
async function within(what: string, bound: number, check: () => Promise<boolean>): Promise<number> {
  const since = Date.now();
  for (;;) {
    if (await check()) return Date.now() - since;
    if (Date.now() - since > bound) throw new Error(`${what}: not within ${bound} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const status = async (base: string, path: string, headers: Record<string, string> = {}) => (await raw(base, path, headers)).status;

describe.runIf(mysql)('two bffs and two media services behind one nginx on shared MariaDB and Redis', () => {
  let db: TestDb;
  let dataDir: string;
  let mediaRoot: string;
  let nginx: RunningNginx;
  let provider: Service;
  const bffs: Service[] = [];
  const media: Service[] = [];
  const lines: string[] = [];
  // What the purge hook (PURGE_WEBHOOK_URL) of each media service delivered.
  const purges: { event: string; urls: string[] }[] = [];
  let purgeServer: Server;
  const redisUrl = testRedisUrl()!;
  // Keys and the change channel of this run only: other tests may share the Redis database.
  const prefix = `replicas-${process.pid}:`;

  beforeAll(async () => {
    db = await createTestDb('mysql');
    dataDir = mkdtempSync(join(tmpdir(), 'replicas-'));
    mediaRoot = join(dataDir, 'media');
    const quiet = () => {};
    buildFrontendIfNeeded(quiet);
    await prepareData(db.url, mediaRoot, quiet);
    const onLine = (name: string, line: string) => lines.push(`[${name}] ${line}`);
    const generationDir = join(dataDir, 'catalog-generation');

    purgeServer = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        purges.push(JSON.parse(body) as { event: string; urls: string[] });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => purgeServer.listen(0, '127.0.0.1', r));
    const purgeUrl = `http://127.0.0.1:${(purgeServer.address() as AddressInfo).port}/purge`;

    const simPort = await freePort();
    const sim = spawnTs('provider', simulatorEntry, { ...process.env, SIMULATOR_PORT: String(simPort) }, onLine);
    provider = { child: sim, url: `http://127.0.0.1:${simPort}` };
    await waitHealthy(`${provider.url}/healthz`, sim);

    const base: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: db.url,
      REDIS_URL: redisUrl,
      CACHE_KEY_PREFIX: prefix,
      MEDIA_ROOT: mediaRoot,
      LOG_LEVEL: 'info',
      SEARCH_INDEX: 'off',
      CCBILL_BASE_URL: provider.url,
      // The bffs trust loopback (nginx, this test) as a proxy; the race's deliveries say they came from here.
      WEBHOOK_ALLOWED_IPS: '127.0.0.1,::1,64.38.240.0/24',
      // Shared by every bff replica, as compose's volume is: nginx keys the API cache on it.
      FRONT_GENERATION_DIR: generationDir,
      // Edge URLs: the bffs sign them, nginx (as a CDN would) and the media services verify them.
      EDGE_URL_SECRET: EDGE_SECRET,
    };
    for (let i = 0; i < REPLICAS; i += 1) {
      const port = await freePort();
      const child = spawnTs(`bff${i}`, resolve(repoRoot, 'bff/src/main.ts'), { ...base, BFF_PORT: String(port) }, onLine);
      bffs.push({ child, url: `http://127.0.0.1:${port}` });
    }
    await Promise.all(bffs.map((b) => waitHealthy(`${b.url}/healthz`, b.child, 60_000)));
    for (let i = 0; i < REPLICAS; i += 1) {
      const port = await freePort();
      const env: NodeJS.ProcessEnv = {
        ...base,
        MEDIA_PORT: String(port),
        MEDIA_OFFLOAD: 'nginx',
        VARIANT_CACHE_DIR: join(dataDir, `variants-${i}`),
        // Each media service polls its own bff's lists.
        MEDIA_REVOCATION_URL: `${bffs[i]!.url}/internal/media-revocations`,
        MEDIA_TAKEDOWN_INTERVAL_S: '1',
        PURGE_WEBHOOK_URL: purgeUrl,
      };
      const child = spawnTs(`media${i}`, resolve(repoRoot, 'media-service/src/main.ts'), env, onLine);
      media.push({ child, url: `http://127.0.0.1:${port}` });
    }
    await Promise.all(media.map((m) => waitHealthy(`${m.url}/readyz`, m.child, 60_000)));
    nginx = await startNginx({
      bffUrl: bffs.map((b) => b.url),
      mediaUrl: media.map((m) => m.url),
      spaDir: resolve(repoRoot, 'frontend/dist'),
      mediaRoot,
      workDir: join(dataDir, 'nginx'),
      catalogGenerationDir: generationDir,
      providerOrigin: provider.url,
      onLine: (line) => onLine('nginx', line),
      vars: { EDGE_URL_SECRET: EDGE_SECRET },
    });
  });

  afterAll(async () => {
    await nginx?.stop();
    await Promise.all([...media, ...bffs, ...(provider ? [provider] : [])].map((s) => s.child.stop()));
    purgeServer?.closeAllConnections();
    purgeServer?.close();
    await db?.destroy();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    const errors = lines.filter((l) => /"level":(?:50|60)/.test(l));
    expect(errors, errors.join('\n')).toEqual([]);
  });

  /** `npm run ops -- ...` as an operator runs it: it announces the change on Redis. */
  const catalog = async (...argv: string[]) => {
    const out: string[] = [];
    const code = await runOpsCommand(argv, {
      env: { DATABASE_URL: db.url, MEDIA_ROOT: mediaRoot, REDIS_URL: redisUrl, CACHE_KEY_PREFIX: prefix },
      out: (s) => out.push(s),
      err: (s) => out.push(s),
    });
    expect(code, out.join('\n')).toBe(0);
  };

  it('spreads the front door over both bffs and both media services', async () => {
    // nginx round-robins over each upstream's servers: its access log names the replica that
    // answered each request (/api/me is never cached; the thumbnails are distinct paths).
    for (let i = 0; i < 8; i += 1) expect(await status(nginx.url, '/api/me')).toBe(401);
    const set = await db.knex('photosets').orderBy('id').first('path');
    for (let i = 0; i < 8; i += 1) expect(await status(nginx.url, `/members/photosthumbs/${set.path}/missing-${i}.jpg`)).toBe(404);
    const upstreams = () =>
      new Set(
        readFileSync(join(dataDir, 'nginx', 'access.log'), 'utf8')
          .split('\n')
          .flatMap((l) => /"upstream":"([^"]+)"/.exec(l)?.[1]?.split(/[ ,]+/) ?? []),
      );
    const all = [...bffs, ...media].map((s) => new URL(s.url).host);
    // The access log is flushed every second.
    await within('every replica in the access log', 5000, async () => all.every((host) => upstreams().has(host)));
  });

  it('makes a catalog change visible on both bffs and through nginx, and a takedown 410 on both media services', async () => {
    const set = await db.knex('freephotosets').orderBy('id').first('id', 'path');
    const file = await db.knex('freephotoset_files').where({ freephotoset_id: set.id }).orderBy('id').first('filename');
    const api = `/api/freethumbnails/${set.path}`;
    const original = `/members/freephotos/${set.path}/${file.filename}`;
    /** Whether both bffs and the front door answer `api` with `code`. */
    const apiAnswers = async (code: number) => {
      // The two front-door requests one after the other: identical requests at once for an answer
      // nginx does not store (a 404) wait on its cache lock, which it rechecks every 500 ms.
      const answers = [
        ...(await Promise.all(bffs.map((b) => status(b.url, api)))),
        await status(nginx.url, api),
        await status(nginx.url, api),
      ];
      return answers.every((s) => s === code);
    };
    /** Whether both media services answer `original` with `code`. */
    const mediaAnswers = async (code: number) => (await Promise.all(media.map((m) => status(m.url, original)))).every((s) => s === code);
    for (const b of bffs) expect(await status(b.url, api)).toBe(200);
    // Twice through nginx: the second is its cached copy for the current generation.
    expect(await status(nginx.url, api)).toBe(200);
    expect(await status(nginx.url, api)).toBe(200);
    for (const m of media) expect(await status(m.url, original)).toBe(200);

    await catalog('takedown', `/freephotos/${set.path}`, '--by', 'ops', '--reason', 'replica test');
    const gone = await within('the takedown on both bffs and through nginx', COHERENCE_MS, () => apiAnswers(404));
    const mediaGone = await within('410 from both media services', TAKEDOWN_MS, () => mediaAnswers(410));
    expect(await status(nginx.url, original)).toBe(410);
    // Each media service tells the external cache once it refuses the item itself: two calls.
    const folderUrls = [`/members/freephotos/${set.path}/`, `/edge/members/freephotos/${set.path}/`].map((u) => u.replace(/ /g, '%20'));
    await within(
      'a takedown purge from each media service',
      TAKEDOWN_MS,
      async () => purges.filter((p) => p.event === 'takedown').length === REPLICAS,
    );
    for (const p of purges) expect(p.urls).toEqual(folderUrls);

    await catalog('restore', `/freephotos/${set.path}`, '--by', 'ops', '--reason', 'replica test');
    const back = await within('the restore on both bffs and through nginx', COHERENCE_MS, () => apiAnswers(200));
    await within('200 from both media services', TAKEDOWN_MS, () => mediaAnswers(200));
    await within(
      'a restore purge from each media service',
      TAKEDOWN_MS,
      async () => purges.filter((p) => p.event === 'restore').length === REPLICAS,
    );
    console.log(
      `replicas: takedown on both bffs + nginx after ${gone} ms, 410 from both media services after ${mediaGone} ms; restore after ${back} ms`,
    );
  });

  it('keeps a session made on one bff on the other, and its media cookie on either media service', async () => {
    const [a, b] = bffs as [Service, Service];
    const login = await fetch(`${a.url}/api/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: a.url },
      body: JSON.stringify(DEMO_MEMBER),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const me = await fetch(`${b.url}/api/me`, { headers: { Cookie: cookie } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { username?: string }).username).toBe(DEMO_MEMBER.username);
    const row = await db
      .knex('photoset_files as f')
      .join('photosets as p', 'p.id', 'f.photoset_id')
      .orderBy('f.id')
      .first('p.path', 'f.filename');
    const photo = `/members/photos/${row.path}/${row.filename}`;
    for (const m of media) {
      expect(await status(m.url, photo)).toBe(401);
      expect(await status(m.url, photo, { Cookie: cookie })).toBe(200);
    }
    // A download link from one bff: the 48 h member link and the edge (CDN) link, both through nginx.
    const link = await fetch(`${b.url}/api/download-link?path=${encodeURIComponent(photo)}`, { headers: { Cookie: cookie } });
    expect(link.status).toBe(200);
    const { url, edgeUrl } = (await link.json()) as { url: string; edgeUrl: string };
    expect(edgeUrl).toMatch(/^\/edge\/members\/photos\/.+\?md5=[\w-]{22}&expires=\d+&mid=\d+&iat=\d+$/);
    for (const signed of [url, edgeUrl]) expect(await status(nginx.url, signed)).toBe(200);
    expect(
      await status(
        nginx.url,
        edgeUrl.replace(/expires=(\d+)/, (_, e: string) => `expires=${Number(e) + 1}`),
      ),
    ).toBe(403);
    // Signed out on the second bff: the first no longer knows the session either.
    expect((await fetch(`${b.url}/api/logout`, { method: 'POST', headers: { Cookie: cookie, Origin: b.url } })).status).toBeLessThan(300);
    expect((await fetch(`${a.url}/api/me`, { headers: { Cookie: cookie } })).status).toBe(401);
  });

  it('stores the same webhook delivered to both bffs at once once: 200 stored + 200 duplicate, never 500', async () => {
    const [a, b] = bffs as [Service, Service];
    const subscription = '910000000000000077';
    const member = await db.knex('members').where({ username: DEMO_MEMBER.username }).first('id');
    const now = Date.now();
    await db.knex('subscriptions').insert({
      member_id: member.id,
      kind: 'membership',
      vod_id: null,
      provider_subscription_id: subscription,
      status: 'active',
      paid_until: now + 86_400_000,
      created_at: now,
      updated_at: now,
    });
    const deliver = (url: string, transactionId: string) =>
      fetch(`${url}/api/ccbill/webhook?clientAccnum=900000&clientSubacc=0&eventType=RenewalSuccess`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '64.38.240.17' },
        body: JSON.stringify({ clientAccnum: 900000, clientSubacc: 0, subscriptionId: subscription, transactionId, billedAmount: '14.99' }),
      }).then(async (res) => `${res.status} ${((await res.json()) as { status?: string }).status}`);
    const outcomes: string[] = [];
    for (let round = 0; round < 10; round += 1)
      outcomes.push(
        (await Promise.all([deliver(a.url, `replica-race-${round}`), deliver(b.url, `replica-race-${round}`)])).sort().join(' + '),
      );
    expect(new Set(outcomes)).toEqual(new Set(['200 duplicate + 200 stored']));
    expect(Number((await db.knex('webhook_events').where('transaction_id', 'like', 'replica-race-%').count({ n: '*' }).first())?.n)).toBe(
      10,
    );
  });

  it('charges one payment token sent to both bffs at once exactly once', async () => {
    const [a, b] = bffs as [Service, Service];
    // Steps 1-3 (frontend token, provider token, backend handle) on bff A; the charge to both.
    // payMembership (the SPA's four steps) runs the first three; its fourth call is kept, not sent.
    let charge: RequestInit | undefined;
    const realFetch = globalThis.fetch;
    globalThis.fetch = async (input, init) => {
      if (String(input).endsWith('/api/process_payment')) {
        charge = init;
        return new Response('{}', { status: 200 });
      }
      return realFetch(input, init);
    };
    try {
      await payMembership(a.url, 'replica_payer', '1111');
    } finally {
      globalThis.fetch = realFetch;
    }
    expect(charge).toBeDefined();
    const send = (url: string) =>
      // The same browser (step 1's payment cookie) sending to every bff and the front door.
      fetch(`${url}/api/process_payment`, { ...charge, headers: { ...(charge?.headers as Record<string, string>), Origin: url } }).then(
        async (r) => ({ status: r.status, body: await r.json() }),
      );
    const answers = await Promise.all([send(a.url), send(b.url), send(nginx.url)]);
    for (const r of answers) expect(r.body).toEqual({ approved: true, status: 'approved' });
    const charges = ((await (await fetch(`${provider.url}/_sim/charges`)).json()) as { charges: { passThrough: Record<string, string> }[] })
      .charges;
    expect(charges.filter((c) => c.passThrough.username === 'replica_payer')).toHaveLength(1);
    expect(await db.knex('members').where({ username: 'replica_payer' })).toHaveLength(1);
  });
});
