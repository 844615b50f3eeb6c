import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/site';
import { freePort } from '../src/nginx';
import { ComposeProject, REQUIRED, composeTestEnabled, docker, generatedSecrets, must, waitFor, writeEnvFile } from './compose';
import { buildIngestFolder, ingestIn, mysqlIn, placeConsoleBatch, signInThrough, tearDown } from './site';

// The production shape (docker-compose.yml) for real, on Docker with the stand-in images
// (tools/compose-sim): required values, health, the catalog and a member's Range request through
// nginx's X-Accel offload, restarts, address changes, down/up, forged webhooks, logs.
// Runs only with COMPOSE_TEST=1 (.ci/run sets it); with it set, a missing Docker fails every test.

const SERVICES = ['mysql', 'redis', 'bff', 'media-service', 'nginx'];
// An operator's provider account (made up, never a published value).
const PROVIDER = {
  CCBILL_CLIENT_ACCNUM: '951234',
  CCBILL_CLIENT_SUBACC: '1',
  CCBILL_FRONTEND_APP_ID: `compose-test-${randomBytes(4).toString('hex')}`,
  CCBILL_FRONTEND_SECRET: randomBytes(32).toString('hex'),
  CCBILL_BACKEND_APP_ID: `compose-test-${randomBytes(4).toString('hex')}`,
  CCBILL_BACKEND_SECRET: randomBytes(32).toString('hex'),
};
const MEMBER = { username: 'composer', password: 'compose-member-pass-1' };
const CLIP = { path: 'clip-one', file: 'V001_ModelC1_ComposeClip001.mpg' };

let project: ComposeProject;
let values: Record<string, string>;
/** Required settings whose refusal points at the docs' Mail section rather than at openssl. */
const MAIL_SETTINGS: readonly string[] = ['SITE_URL', 'SMTP_URL', 'MAIL_FROM'];
let ingestDir: string;
/** The restore drill's off-site folder. */
let offsite: string | undefined;
/** Set once `up` worked: later checks fail at once instead of waiting out their timeouts. */
let started = false;
const requireStarted = () => {
  if (!started) throw new Error('the stack did not start (see the earlier failure)');
};

async function signIn(): Promise<string> {
  return signInThrough(project.url(''), MEMBER);
}

/** A member's Range request for the ingested clip, through nginx. */
async function memberRange(cookie: string, requestId: string): Promise<{ status: number; range: string; body: Buffer }> {
  const res = await fetch(project.url(`/members/video/${CLIP.path}/${CLIP.file}`), {
    headers: { Cookie: cookie, Range: 'bytes=100-1123', 'X-Request-Id': requestId },
  });
  return { status: res.status, range: res.headers.get('content-range') ?? '', body: Buffer.from(await res.arrayBuffer()) };
}

async function catalogStatus(): Promise<number> {
  return (await fetch(project.url('/api/videos/1'))).status;
}

/** nginx's JSON access line for a request id (the log is flushed at least every second). */
async function accessLine(requestId: string): Promise<Record<string, unknown>> {
  let line: Record<string, unknown> | undefined;
  await waitFor(
    async () => {
      const logs = await docker(['logs', await project.containerId('nginx')]);
      const found = logs.stdout.split('\n').find((l) => l.includes(`"request_id":"${requestId}"`));
      if (found) line = JSON.parse(found) as Record<string, unknown>;
      return line !== undefined;
    },
    10_000,
    () => `nginx's access line for ${requestId}`,
  );
  return line!;
}

const mysql = (sql: string) => mysqlIn(project, sql);

/** Still serving: the catalog and a member's 206 through nginx, within `withinMs`. */
async function expectServing(withinMs: number): Promise<void> {
  const cookie = await signIn().catch(() => '');
  let last = '';
  await waitFor(
    async () => {
      const c = cookie || (await signIn());
      const [catalog, range] = [await catalogStatus(), await memberRange(c, `compose-serving-${Date.now()}`)];
      last = `catalog ${catalog}, member range ${range.status}`;
      return catalog === 200 && range.status === 206;
    },
    withinMs,
    () => `the site to serve again (last: ${last})`,
  );
}

describe.skipIf(!composeTestEnabled)('docker-compose.yml, production shape', () => {
  beforeAll(async () => {
    const secrets = generatedSecrets();
    const port = await freePort();
    // docs/deploy.md, "First start": `.env.example` with its REQUIRED block filled in; then what this
    // machine needs: a free port, the stand-in images (tools/compose-sim) built on the host network.
    values = {
      ...secrets,
      ...PROVIDER,
      PORT: String(port),
      PROMETHEUS_PORT: String(await freePort()),
      IMAGE_PREFIX: 'media-site-compose-test',
      BUILD_NETWORK: 'host',
    };
    const example = await readFile(join(repoRoot, '.env.example'), 'utf8');
    project = new ComposeProject('mscomposetest', ['docker-compose.yml'], await writeEnvFile(values, example), port);
    // Leftovers of an interrupted run.
    await project.compose(['--profile', 'monitoring', 'down', '-v', '--remove-orphans'], { timeoutMs: 120_000 });
    ingestDir = await buildIngestFolder([{ ...CLIP, title: 'Compose Clip' }]);
  });
  afterAll(async () => {
    await tearDown(project, ingestDir);
    if (offsite) await rm(offsite, { recursive: true, force: true });
  });

  describe('required values', () => {
    it('refuses .env.example as it is, naming a required value and how to set it', async () => {
      const example = new ComposeProject('msexample', ['docker-compose.yml'], join(repoRoot, '.env.example'), 0);
      const r = await example.compose(['config', '-q']);
      expect(r.code).not.toBe(0);
      const named = /set ([A-Z_]+) in \.env, \S/.exec(r.stderr)?.[1];
      expect(REQUIRED as readonly string[]).toContain(named);
    });

    it('.env.example carries no value for a required variable and no example secret', async () => {
      const text = await readFile(join(repoRoot, '.env.example'), 'utf8');
      for (const name of REQUIRED) expect(text).toMatch(new RegExp(`^${name}=$`, 'm'));
      const settings = text.split('\n').filter((l) => /^[A-Z_]+=/.test(l));
      expect(settings.filter((l) => /change-me|local-only|sim-|secret/i.test(l.slice(l.indexOf('=') + 1)))).toEqual([]);
    });

    it.each(REQUIRED)('refuses to start without %s, saying which and how', async (name) => {
      const without = { ...values, [name]: '' };
      const p = new ComposeProject('msrequired', ['docker-compose.yml'], await writeEnvFile(without), 0);
      try {
        const r = await p.compose(['config', '-q']);
        expect(r.code).not.toBe(0);
        expect(r.stderr).toContain(`set ${name} in .env`);
        if (name.startsWith('CCBILL_')) expect(r.stderr).toContain('demo shape in docs/deploy.md');
        else if (MAIL_SETTINGS.includes(name)) expect(r.stderr).toContain('docs/deploy.md, Mail');
        else expect(r.stderr).toContain('openssl rand');
      } finally {
        await rm(dirname(p.envFile), { recursive: true, force: true });
      }
    });

    it('accepts a filled-in file, with the bff in production trusting nginx only', async () => {
      const r = await project.compose(['config']);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/NODE_ENV: production/);
      // nginx's fixed address as .env.example gives it, and the bff trusting exactly that one.
      const nginx = /^NGINX_ADDRESS=(.+)$/m.exec(await readFile(join(repoRoot, '.env.example'), 'utf8'))?.[1] ?? '';
      expect(nginx).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
      expect(r.stdout).toContain(`TRUSTED_PROXIES: ${nginx}\n`);
      expect(r.stdout).toContain(`ipv4_address: ${nginx}\n`);
      // The media service uses neither the database nor Redis.
      const media = /\n {2}media-service:\n([\s\S]*?)\n {2}[a-z]/.exec(r.stdout)?.[1] ?? '';
      expect(media).toMatch(/MEDIA_TAKEDOWN_URL: http:\/\/bff:3001\/internal\/media-takedowns/);
      expect(media).not.toMatch(/DATABASE_URL|REDIS_URL/);
    });
  });

  describe('the stack', () => {
    it('builds the images', async () => {
      expect((await docker(['info', '--format', '{{.ServerVersion}}'])).code, 'Docker must answer (dockerd running)').toBe(0);
      // The tools profile too: the operator image (ops) runs the seed, ingest and member commands
      // below; and the monitoring profile's image (Prometheus and the exporters).
      await must(project.compose(['--profile', 'tools', '--profile', 'monitoring', 'build'], { timeoutMs: 1_500_000 }), 'compose build');
      const sizes: string[] = [];
      for (const s of ['nginx', 'bff', 'media-service', 'migrate', 'encoder', 'operator', 'monitoring']) {
        const image = `${values.IMAGE_PREFIX}-${s}:latest`;
        const bytes = Number((await must(docker(['image', 'inspect', '-f', '{{.Size}}', image]), `inspect ${image}`)).trim());
        sizes.push(`${s} ${(bytes / 1e6).toFixed(0)} MB`);
      }
      console.log(`image sizes (stand-in bases): ${sizes.join(', ')}`);
    }, 1_600_000);

    it('starts: migrate exits 0, every service turns healthy', async () => {
      await must(project.compose(['up', '-d'], { timeoutMs: 600_000 }), 'compose up');
      await project.waitHealthy(SERVICES);
      expect(await project.inspect('migrate', '{{.State.Status}} {{.State.ExitCode}}')).toBe('exited 0');
      started = true;
    }, 700_000);

    it('refuses the demo seed in the production images', async () => {
      requireStarted();
      const r = await project.compose(['run', '--rm', '-T', 'operator', 'seed'], { timeoutMs: 120_000 });
      expect(r.code).not.toBe(0);
      expect(r.stderr + r.stdout).toContain('refused with NODE_ENV=production');
      expect(await mysql('select count(*) from photosets')).toBe('0');
    });

    it('ingests through the operator CLI and serves the catalog through nginx', async () => {
      requireStarted();
      const out = await ingestIn(project, ingestDir);
      expect(out).toMatch(/2 added/);
      const res = await fetch(project.url('/api/videos/1'));
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual([expect.objectContaining({ path: CLIP.path, updatename: 'Compose Clip' })]);
      const thumb = await fetch(project.url(`/members/videothumbs/${CLIP.path}/${CLIP.path}_02.jpg`));
      expect(thumb.status).toBe(200);
      expect(thumb.headers.get('content-type')).toMatch(/^image\//);
    });

    it('encodes the ingested clip in the encoder service (queued by ingest, done without an operator)', async () => {
      requireStarted();
      let status = '';
      for (let i = 0; i < 180 && status !== 'done' && status !== 'failed'; i++) {
        status = await mysql(`select status from media_jobs where content_type = 'video' and path = '${CLIP.path}'`);
        if (status !== 'done') await new Promise((r) => setTimeout(r, 1000));
      }
      expect(status, 'the encode job of the ingested clip').toBe('done');
      expect(await project.inspect('encoder', '{{.State.Status}}')).toBe('running');
    }, 200_000);

    it('runs an ingest the console queued in the ingest-worker service, with its progress and report', async () => {
      requireStarted();
      expect(await project.inspect('ingest-worker', '{{.State.Status}} {{.RestartCount}}')).toBe('running 0');
      await placeConsoleBatch(project, 'console-batch', 'console-set', 'Console Set');
      // What POST /api/admin/ingests writes (db/src/admin/ingests.ts requestIngest), minus the sign-in.
      await mysql(
        `insert into ingest_runs (folder, active_folder, status, requested_by, created_at) values ('console-batch', 'console-batch', 'queued', 'compose-test', ${Date.now()})`,
      );
      let row = '';
      for (let i = 0; i < 120 && !/^(?:done|failed)/.test(row); i++) {
        row = await mysql(`select status, done, total, coalesce(error, '') from ingest_runs where folder = 'console-batch'`);
        if (!/^(?:done|failed)/.test(row)) await new Promise((r) => setTimeout(r, 1000));
      }
      expect(row.split('\t').slice(0, 3)).toEqual(['done', '1', '1']);
      await waitFor(
        async () => {
          const photos = (await (await fetch(project.url('/api/photos/1'))).json()) as Array<{ path: string }>;
          return photos.some((p) => p.path === 'console-set');
        },
        15_000,
        () => 'the console-ingested set in /api/photos/1',
      );
    }, 200_000);

    it("serves a signed-in member's Range request (206) from nginx's /_protected/ (X-Accel)", async () => {
      requireStarted();
      await must(
        project.compose(['run', '--rm', '-T', 'operator', 'ops', 'members', 'add', MEMBER.username, '--password-stdin', '--days', '30'], {
          input: `${MEMBER.password}\n`,
          timeoutMs: 120_000,
        }),
        'member add',
      );
      const cookie = await signIn();
      const id = `compose-range-${Date.now()}`;
      const res = await memberRange(cookie, id);
      const original = await readFile(join(ingestDir, 'video', CLIP.path, 'clip.mp4'));
      expect(res.status).toBe(206);
      expect(res.range).toBe(`bytes 100-1123/${(await stat(join(ingestDir, 'video', CLIP.path, 'clip.mp4'))).size}`);
      expect(res.body.equals(original.subarray(100, 1124))).toBe(true);
      // The media service answered 200 with X-Accel-Redirect; nginx sent the 206 from the file.
      expect(await accessLine(id)).toMatchObject({ status: 206, upstream_status: '200', bytes: 1024 });
      // Without a session: refused by the media service, nothing sent.
      expect((await memberRange('', `compose-anon-${Date.now()}`)).status).toBe(401);
    });

    it('keeps serving across `restart bff`', async () => {
      requireStarted();
      await must(project.compose(['restart', 'bff'], { timeoutMs: 120_000 }), 'restart bff');
      await project.waitHealthy(['bff', 'nginx'], 120_000);
      await expectServing(30_000);
    });

    it('keeps serving across `stop bff media-service; start bff; start media-service`', async () => {
      requireStarted();
      await must(project.compose(['stop', 'bff', 'media-service'], { timeoutMs: 120_000 }), 'stop');
      await must(project.compose(['start', 'bff'], { timeoutMs: 120_000 }), 'start bff');
      await must(project.compose(['start', 'media-service'], { timeoutMs: 120_000 }), 'start media-service');
      await project.waitHealthy(['bff', 'media-service', 'nginx'], 120_000);
      await expectServing(30_000);
    });

    it('follows the services to new addresses (nginx re-resolves; its health covers the upstreams)', async () => {
      requireStarted();
      const before = { bff: await project.address('bff'), media: await project.address('media-service') };
      await must(project.compose(['stop', 'bff', 'media-service'], { timeoutMs: 120_000 }), 'stop');
      // Take their old addresses meanwhile, so both come back on new ones.
      const network = `${project.name}_default`;
      const squatters = [`${project.name}-squat-bff`, `${project.name}-squat-media`];
      try {
        for (const [i, ip] of [before.bff, before.media].entries()) {
          await must(
            docker([
              'run',
              '-d',
              '--rm',
              '--name',
              squatters[i]!,
              '--network',
              network,
              '--ip',
              ip,
              '--entrypoint',
              'sleep',
              'debian:bookworm-slim',
              '600',
            ]),
            'squat',
          );
        }
        await must(project.compose(['start', 'bff'], { timeoutMs: 120_000 }), 'start bff');
        await must(project.compose(['start', 'media-service'], { timeoutMs: 120_000 }), 'start media-service');
        const after = { bff: await project.address('bff'), media: await project.address('media-service') };
        expect(after.bff).not.toBe(before.bff);
        expect(after.media).not.toBe(before.media);
        await expectServing(30_000);
        await project.waitHealthy(['nginx'], 60_000);
        const logs = await docker(['logs', await project.containerId('nginx')]);
        expect(logs.stderr).toContain(`bff=${after.bff}`);
      } finally {
        for (const s of squatters) await docker(['rm', '-f', s]);
      }
    });

    it('refuses a forged provider webhook from a peer on the compose network, and changes nothing', async () => {
      requireStarted();
      const state = () =>
        mysql('select (select count(*) from webhook_events), (select count(*) from subscriptions), (select count(*) from members)');
      const before = await state();
      const forged = JSON.stringify({
        transactionId: `forged-${Date.now()}`,
        subscriptionId: '1',
        nextRenewalDate: '2099-01-01',
        username: MEMBER.username,
      });
      const query = `clientAccnum=${PROVIDER.CCBILL_CLIENT_ACCNUM}&clientSubacc=${PROVIDER.CCBILL_CLIENT_SUBACC}&eventType=RenewalSuccess`;
      // Straight to the bff from another container on the network, claiming a provider address.
      const script = `fetch('http://bff:3001/api/ccbill/webhook?${query}', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '64.38.212.10' }, body: process.argv[1] }).then((r) => console.log(r.status), (e) => { console.error(e); process.exit(1); })`;
      const direct = await must(
        project.compose(['run', '--rm', '--no-deps', '-T', '--entrypoint', 'node', 'migrate', '-e', script, forged], {
          timeoutMs: 120_000,
        }),
        'forged webhook from a peer',
      );
      expect(direct.trim().split('\n').pop()).toBe('403');
      // Through the front door from outside, with the same claim.
      const viaNginx = await fetch(project.url(`/api/ccbill/webhook?${query}`), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '64.38.212.10' },
        body: forged,
      });
      expect(viaNginx.status).toBe(403);
      expect(await state()).toBe(before);
    });

    it('logs JSON lines only: a database outage through the logger, health probes not at info', async () => {
      requireStarted();
      const since = new Date().toISOString();
      const bff = await project.containerId('bff');
      let lines: string[] = [];
      await must(project.compose(['stop', 'mysql'], { timeoutMs: 120_000 }), 'stop mysql');
      try {
        // Reads the bff cannot answer from memory (and its own health probe) try the database.
        await fetch(project.url(`/api/search?q=outage${Date.now()}`)).catch(() => undefined);
        await waitFor(
          async () => {
            const logs = await docker(['logs', '--since', since, bff]);
            lines = `${logs.stdout}\n${logs.stderr}`.split('\n').filter(Boolean);
            return lines.some((l) => l.includes('"component":"knex"'));
          },
          30_000,
          () => `a knex line in the bff's log (last lines: ${lines.slice(-3).join(' | ')})`,
        );
      } finally {
        await must(project.compose(['start', 'mysql'], { timeoutMs: 120_000 }), 'start mysql');
      }
      const parsed = lines.map((l) => {
        try {
          return JSON.parse(l) as Record<string, unknown>;
        } catch {
          throw new Error(`not a JSON line: ${l}`);
        }
      });
      expect(parsed.some((l) => l.component === 'knex' && l.level === 40)).toBe(true);
      const all = await docker(['logs', bff]);
      expect(all.stdout).not.toMatch(/"url":"\/(healthz|readyz)","status":200/);
      await project.waitHealthy(SERVICES, 120_000);
    });

    it('keeps the data across `down` and `up`', async () => {
      requireStarted();
      await must(project.compose(['down'], { timeoutMs: 180_000 }), 'down');
      started = false;
      await must(project.compose(['up', '-d'], { timeoutMs: 600_000 }), 'up');
      await project.waitHealthy(SERVICES);
      started = true;
      await expectServing(30_000);
      expect(await mysql(`select username from members where username = '${MEMBER.username}'`)).toBe(MEMBER.username);
    }, 700_000);

    it('restores a backup into a stack brought up empty (`down -v`): the member, the clip and its renditions come back', async () => {
      requireStarted();
      expect(await project.inspect('backup', '{{.State.Status}}')).toBe('running');
      const cookie = await signIn();
      const before = await memberRange(cookie, `compose-before-backup-${Date.now()}`);
      expect(before.status).toBe(206);
      const counts = `select (select count(*) from members), (select count(*) from videos), (select count(*) from media_jobs where status = 'done')`;
      const rows = await mysql(counts);
      // The set goes to a folder off the volumes (the docs' off-site copy), as the operator's user.
      offsite = await mkdtemp(join(tmpdir(), 'compose-offsite-'));
      await chmod(offsite, 0o777);
      const made = await must(
        project.compose(['run', '--rm', '-T', '-v', `${offsite}:/srv/offsite`, 'operator', 'ops', 'backup', '--to', '/srv/offsite'], {
          timeoutMs: 180_000,
        }),
        'ops backup',
      );
      expect(made).toMatch(/^backup \d{8}T\d{6}\.\d{3}Z written/m);
      started = false;
      await must(project.compose(['down', '-v'], { timeoutMs: 180_000 }), 'down -v');
      await must(project.compose(['up', '-d'], { timeoutMs: 600_000 }), 'up (empty)');
      await project.waitHealthy(SERVICES);
      expect(await mysql('select count(*) from members')).toBe('0');
      const restored = await must(
        project.compose(
          [
            'run',
            '--rm',
            '-T',
            '-v',
            `${offsite}:/srv/offsite:ro`,
            'operator',
            'ops',
            'restore-backup',
            'latest',
            '--from',
            '/srv/offsite',
          ],
          {
            timeoutMs: 300_000,
          },
        ),
        'ops restore-backup',
      );
      expect(restored).toMatch(/every table's count as the set records it/);
      started = true;
      expect(await mysql(counts)).toBe(rows);
      await expectServing(30_000);
      const after = await memberRange(await signIn(), `compose-after-restore-${Date.now()}`);
      expect(after).toMatchObject({ status: 206, range: before.range });
      expect(after.body.equals(before.body)).toBe(true);
    }, 1_200_000);

    it('turns monitoring on with one line: Prometheus scrapes every part, and a stopped media service fires its alert', async () => {
      requireStarted();
      await must(project.compose(['--profile', 'monitoring', 'up', '-d'], { timeoutMs: 300_000 }), 'up --profile monitoring');
      const api = `http://127.0.0.1:${values.PROMETHEUS_PORT}/api/v1`;
      const data = async <T>(path: string): Promise<T> => ((await (await fetch(`${api}${path}`)).json()) as { data: T }).data;
      let targets = '';
      await waitFor(
        async () => {
          const { activeTargets } = await data<{ activeTargets: Array<{ labels: { job: string }; health: string }> }>('/targets');
          targets = activeTargets
            .map((t) => `${t.labels.job}:${t.health}`)
            .sort()
            .join(' ');
          return targets === 'bff:up encoder:up media:up mysqld:up nginx:up node:up prometheus:up redis:up';
        },
        180_000,
        () => `every target up (now: ${targets})`,
      );
      // The exporters read their engines, not only answer.
      const value = async (query: string) =>
        (await data<{ result: Array<{ value: [number, string] }> }>(`/query?query=${encodeURIComponent(query)}`)).result.map(
          (r) => r.value[1],
        );
      expect(await value('nginx_up')).toEqual(['1']);
      expect(await value('mysql_up')).toEqual(['1']);
      expect(await value('redis_up')).toEqual(['1']);
      await must(project.compose(['stop', 'media-service'], { timeoutMs: 120_000 }), 'stop media-service');
      const stopped = Date.now();
      let firing = '';
      // The rule's `for` (1 min) plus a scrape and an evaluation (15 s each), with slack.
      await waitFor(
        async () => {
          const { alerts } = await data<{ alerts: Array<{ labels: Record<string, string>; state: string }> }>('/alerts');
          firing = alerts
            .filter((a) => a.state === 'firing')
            .map((a) => `${a.labels.alertname}:${a.labels.job}`)
            .join(' ');
          // Found by its service name, a stopped media service is no target at all: ServiceAbsent.
          return /\bService(?:Down|Absent):media\b/.test(firing);
        },
        180_000,
        () => `ServiceAbsent or ServiceDown for the media service (firing: ${firing || 'none'})`,
        2000,
      );
      console.log(`${firing} fired ${((Date.now() - stopped) / 1000).toFixed(0)} s after the media service stopped`);
      await must(project.compose(['start', 'media-service'], { timeoutMs: 120_000 }), 'start media-service');
      await project.waitHealthy(['media-service']);
    }, 700_000);
  });
});
