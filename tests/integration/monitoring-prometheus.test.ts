import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKnex } from '@media-site/db';
import { freePort } from '../../scripts/lib/process';
import { scrapeConfig } from '../../scripts/lib/scrape-config';
import { signInCookie } from '../src/sign-in';
import { startStack, type Stack } from '../src/stack';

// A real Prometheus (Debian's package) scraping a real site as `npm start` runs it with
// METRICS_PORT: the bff, the media service and the encoder, the config `npm start` writes, and the
// repo's alert rules with their `for` shortened to a second (the expressions are the real ones;
// monitoring/*.test.yml tests them at their real durations).
const repo = join(import.meta.dirname, '../..');

/** Three free ports in a row (the site puts bff, media and encoder at N, N+1, N+2). */
async function threePorts(): Promise<number> {
  const free = (port: number) =>
    new Promise<boolean>((resolve) => {
      const server = createServer()
        .once('error', () => resolve(false))
        .listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
  for (;;) {
    const base = 20_000 + Math.floor(Math.random() * 40_000);
    if ((await free(base)) && (await free(base + 1)) && (await free(base + 2))) return base;
  }
}

interface Target {
  labels: { job: string };
  health: string;
}
interface Alert {
  labels: Record<string, string>;
  state: string;
}

let stack: Stack;
let prometheus: ChildProcess;
let api: string;
let metricsPort: number;
/** The demo member's session, made before the sign-in names below spend the address's budget. */
let member: string;
const dir = mkdtempSync(join(tmpdir(), 'prometheus-'));

const get = async <T>(path: string): Promise<T> => ((await (await fetch(`${api}${path}`)).json()) as { data: T }).data;

beforeAll(async () => {
  metricsPort = await threePorts();
  stack = await startStack({ env: { METRICS_PORT: String(metricsPort) }, encoder: true });
  // The stack's database is a copy of the suite's seeded template, whose clips were queued when the
  // template was made, maybe an hour before this file runs on a loaded machine. A site deployed now
  // queued them now: without this, QueueStuck (a job waiting over an hour) fires on a healthy site.
  const knex = createKnex(stack.databaseUrl);
  try {
    await knex('media_jobs').where({ status: 'queued' }).update({ created_at: Date.now() });
  } finally {
    await knex.destroy();
  }
  member = await signInCookie(stack.url);
  const rules = join(dir, 'alerts.yml');
  writeFileSync(rules, readFileSync(join(repo, 'monitoring/alerts.yml'), 'utf8').replace(/^( +for:) \d+m$/gm, '$1 1s'));
  const at = (offset: number) => [`127.0.0.1:${metricsPort + offset}`];
  writeFileSync(
    join(dir, 'prometheus.yml'),
    scrapeConfig({ jobs: { bff: at(0), media: at(1), encoder: at(2) }, rulesFile: rules, intervalSeconds: 1 }),
  );
  const port = await freePort();
  api = `http://127.0.0.1:${port}/api/v1`;
  prometheus = spawn(
    'prometheus',
    [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`],
    { stdio: 'ignore' },
  );
});

afterAll(async () => {
  prometheus?.kill('SIGKILL');
  await stack?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('a real Prometheus on the site', () => {
  it('scrapes the bff, the media service and the encoder, all up', { timeout: 300_000 }, async () => {
    await expect
      .poll(
        async () =>
          (await get<{ activeTargets: Target[] }>('/targets').catch(() => ({ activeTargets: [] }))).activeTargets
            .map((t) => `${t.labels.job}:${t.health}`)
            .sort(),
        {
          timeout: 60_000,
          interval: 500,
        },
      )
      .toEqual(['bff:up', 'encoder:up', 'media:up']);
    const value = async (query: string) =>
      (await get<{ result: Array<{ value: [number, string] }> }>(`/query?query=${encodeURIComponent(query)}`)).result.map((r) =>
        Number(r.value[1]),
      );
    await expect.poll(() => value('bff_database_up'), { timeout: 30_000 }).toEqual([1]);
    await expect.poll(() => value('media_ready'), { timeout: 30_000 }).toEqual([1]);
    await expect.poll(() => value('max(queue_jobs{queue="encode",state="failed"})'), { timeout: 30_000 }).toHaveLength(1);
    await expect.poll(() => value('sum(encoder_jobs_total)'), { timeout: 30_000 }).toHaveLength(1);
    // What a scrape costs each part (its gauges read the queues, outboxes and backups then): printed, not asserted.
    const took = await get<{ result: Array<{ metric: { job: string }; value: [number, string] }> }>(
      `/query?query=${encodeURIComponent('scrape_duration_seconds')}`,
    );
    console.log(`scrape took: ${took.result.map((r) => `${r.metric.job} ${(Number(r.value[1]) * 1000).toFixed(1)} ms`).join(', ')}`);
    // The rules loaded, and none fires on a healthy site once it is scraped (with `for` shortened to
    // a second, ServiceAbsent fires at Prometheus's start, before its first scrapes, and then resolves).
    const rules = await get<{ groups: Array<{ rules: unknown[] }> }>('/rules');
    expect(rules.groups.flatMap((g) => g.rules).length).toBeGreaterThanOrEqual(30);
    await expect
      .poll(
        async () => (await get<{ alerts: Alert[] }>('/alerts')).alerts.filter((a) => a.state === 'firing').map((a) => a.labels.alertname),
        {
          timeout: 20_000,
          interval: 500,
        },
      )
      .toEqual([]);
  });

  it('keeps labels bounded: no path, item, member or query reaches a label, whatever the traffic', async () => {
    // Unique tokens in every place a request can carry text: paths of every kind, items that do
    // not exist, queries, sign-in names. None may come back in a label.
    const token = (i: number) => `zq${i}x${Math.random().toString(36).slice(2, 8)}`;
    const tokens: string[] = [];
    const paths = (i: number) => {
      const t = token(i);
      tokens.push(t);
      return [
        `/api/photos/${1000 + i}`,
        `/api/videos/item/${t}`,
        `/api/search?q=${t}`,
        `/api/${t}`,
        `/members/photos/${t}/${t}.jpg`,
        `/members/photosthumbs/${t}/large.jpg?w=${100 + i}`,
        `/${t}/deep/${t}`,
      ];
    };
    const load = async (from: number, to: number) => {
      for (let i = from; i < to; i += 1)
        await Promise.all(paths(i).map((path) => fetch(`${stack.url}${path}`).then((r) => r.arrayBuffer())));
    };
    // Sign-in names first, all of them: the limits they meet (nginx's rate, the bff's budget) settle
    // here, so the rounds compared below see no status they have not seen before.
    for (let i = 0; i < 40; i += 1) {
      const t = token(1000 + i);
      tokens.push(t);
      await fetch(`${stack.url}/api/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: stack.url },
        body: JSON.stringify({ username: t, password: 'not-the-password' }),
      }).then((r) => r.arrayBuffer());
    }
    // Our own series (the runtime's, such as GC kinds, are prom-client's and may appear later).
    const series = async (offset: number) => {
      const text = await (await fetch(`http://127.0.0.1:${metricsPort + offset}/metrics`)).text();
      return text.split('\n').filter((line) => line !== '' && !line.startsWith('#') && !/^\w+?_(?:nodejs|process)_/.test(line));
    };
    const count = async () => ({ bff: (await series(0)).length, media: (await series(1)).length });
    await load(0, 30);
    const first = await count();
    await load(30, 60);
    // Thirty more requests of each kind, each with text never seen: not one series more.
    expect(await count()).toEqual(first);
    for (const line of [...(await series(0)), ...(await series(1))]) {
      for (const t of tokens) expect(line).not.toContain(t);
      // Route labels are patterns or families, never a concrete id.
      expect(line).not.toMatch(/route="[^"]*\/\d{3,}/);
    }
    console.log(`own series: bff ${first.bff}, media ${first.media}, the same after ${tokens.length} unique tokens`);
  });

  it('answers every dashboard panel with series', async () => {
    // A payment step answered (a refused one will do) gives its panel a line.
    await fetch(`${stack.bffUrl}/api/process_payment`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    // A member's player reports a start, a stall, a change of quality and an error (the player panels).
    const report = await fetch(`${stack.url}/api/player/reports`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: stack.url, Cookie: member, 'User-Agent': 'Mozilla/5.0 Firefox/128.0' },
      body: JSON.stringify({
        events: [
          { kind: 'start', rendition: 720, ms: 640 },
          { kind: 'stall', rendition: 720, ms: 1200 },
          { kind: 'switch', rendition: 480, from: 720 },
          { kind: 'error', rendition: 480, error: 'network' },
        ],
      }),
    });
    expect(report.status).toBe(204);
    const dashboards = readdirSync(join(repo, 'monitoring/dashboards')).filter((f) => f.endsWith('.json'));
    expect(dashboards.length).toBeGreaterThanOrEqual(4);
    const query = async (expr: string) => {
      const res = await fetch(`${api}/query?query=${encodeURIComponent(expr)}`);
      const body = (await res.json()) as { status: string; error?: string; data?: { result: unknown[] } };
      expect(body.status, `${expr}: ${body.error}`).toBe('success');
      return body.data?.result.length ?? 0;
    };
    for (const file of dashboards) {
      const { panels } = JSON.parse(readFileSync(join(repo, 'monitoring/dashboards', file), 'utf8')) as {
        panels: Array<{ title: string; targets: Array<{ expr: string }> }>;
      };
      for (const panel of panels) {
        // Every query is valid PromQL; at least one per panel has series (an optional one, such as
        // a multi-host site's followers, may have none here).
        await expect
          .poll(async () => (await Promise.all(panel.targets.map((t) => query(t.expr)))).some((n) => n > 0), {
            timeout: 20_000,
            interval: 500,
          })
          .toBe(true);
      }
    }
  });

  it('fires ServiceDown for the media service once it is stopped', async () => {
    // Within the rule's `for` (1 s here) plus a scrape and an evaluation (1 s each): the poll's
    // bound is that with slack for a busy machine (2.3 s measured on a quiet one).
    await stack.children.media.stop();
    await expect
      .poll(
        async () =>
          (await get<{ alerts: Alert[] }>('/alerts')).alerts
            .filter((a) => a.state === 'firing')
            .map((a) => `${a.labels.alertname}:${a.labels.job}`),
        { timeout: 15_000, interval: 250 },
      )
      .toContain('ServiceDown:media');
  });
});
