// bff benchmark: `npm run bench:bff` (env: BENCH_DATABASE_URL, BENCH_REDIS_URL, BENCH_ROUNDS, BENCH_SECONDS,
// BENCH_LOG_LEVEL (info: one access-log line per request, written to /dev/null), BENCH_SKIP_CACHED, BENCH_SKIP_COLD,
// BENCH_SKIP_SEARCH).
// 1. Cached listing: requests/s and p99 of /api/photos/1 from startBff beside a bare Koa app sending
//    the same bytes, each server in its own process, autocannon in this one; median ratio of rounds.
// 2. Cold figures on MariaDB at 100,000 rows per type with the cache off: deep pages timed over HTTP,
//    plus EXPLAIN of exactly the SQL each request ran.
// 3. Cold search with the cache off, from the in-process index (after its build: time and heap) and
//    from the database (SEARCH_INDEX=off), same terms.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import Koa from 'koa';
import type { Knex } from 'knex';
import { createKnex, migrateLatest } from '@media-site/db';
import { startBff } from '@media-site/bff/server';
import { loadConfig } from '@media-site/bff/config';
import { createLogOutput } from '@media-site/bff/logger';
import { repoRoot } from '../../scripts/lib/site';

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p99: number; average: number };
  non2xx: number;
  errors: number;
}
type Autocannon = (opts: { url: string; connections: number; duration: number; pipelining?: number }) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/bench_bff';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 64;
const ROWS = 100_000;
const CACHED_PATH = '/api/photos/1';

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

// ---- child processes: one server each, so the load generator does not share their event loop ----

async function serveBff(): Promise<void> {
  const config = loadConfig({
    BFF_PORT: '0',
    DATABASE_URL,
    REDIS_URL,
    CACHE_KEY_PREFIX: `bench:${process.pid}:`,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
  });
  // Request logs are written as in production (the cost is real) but to /dev/null, not the terminal.
  const { logger, destination } = createLogOutput(config.LOG_LEVEL, '/dev/null');
  const bff = await startBff(config, { logger, logDestination: destination });
  console.log(JSON.stringify({ url: bff.url }));
}

async function serveBare(bffUrl: string): Promise<void> {
  const body = Buffer.from(await (await fetch(bffUrl + CACHED_PATH)).arrayBuffer());
  const app = new Koa();
  app.use((ctx) => {
    ctx.set('Content-Type', 'application/json; charset=utf-8');
    ctx.body = body;
  });
  const server = app.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as { port: number };
    console.log(JSON.stringify({ url: `http://127.0.0.1:${port}`, bytes: body.length }));
  });
}

function startChild(mode: string, ...args: string[]): Promise<{ child: ChildProcess; url: string; bytes?: number }> {
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), mode, ...args], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${mode} exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (line) =>
      resolve({ child, ...(JSON.parse(line) as { url: string; bytes?: number }) }),
    );
  });
}

async function cachedThroughput(): Promise<void> {
  const bff = await startChild('serve-bff');
  const bare = await startChild('serve-bare', bff.url);
  try {
    console.log(`\n## Cached listing ${CACHED_PATH} (${bare.bytes} bytes), ${CONNECTIONS} connections, ${ROUNDS} rounds x ${SECONDS} s`);
    for (const url of [bff.url, bare.url]) await autocannon({ url: url + CACHED_PATH, connections: CONNECTIONS, duration: 1 });
    const ratios: number[] = [];
    const cpuRatios: number[] = [];
    const cpu = { bff: [] as number[], bare: [] as number[] };
    const rows: string[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      // Alternate the order so neither side always runs on a warmer (or hotter) machine.
      const order = round % 2 ? (['bff', 'bare'] as const) : (['bare', 'bff'] as const);
      const result: Partial<Record<'bff' | 'bare', AutocannonResult>> = {};
      const cpuPerRequest: Partial<Record<'bff' | 'bare', number>> = {};
      for (const side of order) {
        const child = side === 'bff' ? bff.child : bare.child;
        const url = (side === 'bff' ? bff.url : bare.url) + CACHED_PATH;
        const cpuBefore = await cpuMicros(child);
        const r = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS });
        cpuPerRequest[side] = ((await cpuMicros(child)) - cpuBefore) / r.requests.total;
        if (r.non2xx || r.errors) throw new Error(`${side}: ${r.non2xx} non-2xx, ${r.errors} errors`);
        result[side] = r;
      }
      const ratio = result.bff!.requests.average / result.bare!.requests.average;
      const cpuRatio = cpuPerRequest.bare! / cpuPerRequest.bff!;
      ratios.push(ratio);
      cpuRatios.push(cpuRatio);
      cpu.bff.push(cpuPerRequest.bff!);
      cpu.bare.push(cpuPerRequest.bare!);
      rows.push(
        `round ${round}: bff ${result.bff!.requests.average.toFixed(0)} req/s p99 ${result.bff!.latency.p99} ms ${cpuPerRequest.bff!.toFixed(0)} µs CPU/req | ` +
          `bare koa ${result.bare!.requests.average.toFixed(0)} req/s p99 ${result.bare!.latency.p99} ms ${cpuPerRequest.bare!.toFixed(0)} µs CPU/req | ` +
          `ratio ${ratio.toFixed(3)}, CPU ratio ${cpuRatio.toFixed(3)}`,
      );
      console.log(rows.at(-1));
    }
    const spread = (xs: number[], digits: number) =>
      `median ${median(xs).toFixed(digits)} (min ${Math.min(...xs).toFixed(digits)}, max ${Math.max(...xs).toFixed(digits)})`;
    console.log(`CPU per request (µs): bff ${spread(cpu.bff, 1)}; bare koa ${spread(cpu.bare, 1)}`);
    console.log(`bff / bare koa, requests/s: ${spread(ratios, 3)} (goal >= 0.9; a busy machine swings this one)`);
    console.log(`bare koa / bff CPU per request (the same ratio, less disturbed by neighbours): ${spread(cpuRatios, 3)}`);
  } finally {
    bff.child.kill('SIGTERM');
    bare.child.kill('SIGTERM');
  }
}

// ---- cold figures ----

/** On a new machine the bench database does not exist yet: create it (MySQL/MariaDB URLs). */
async function ensureDatabase(): Promise<void> {
  const url = new URL(DATABASE_URL);
  const name = decodeURIComponent(url.pathname.slice(1));
  if (!url.protocol.startsWith('mysql') || !/^\w+$/.test(name)) return;
  url.pathname = '/';
  const admin = createKnex(url.toString());
  try {
    await admin.raw(`CREATE DATABASE IF NOT EXISTS \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  } finally {
    await admin.destroy();
  }
}

async function ensureScaleCatalog(): Promise<void> {
  await ensureDatabase();
  const knex = createKnex(DATABASE_URL);
  try {
    await migrateLatest(knex);
    const counts = await Promise.all(['photosets', 'videos', 'vods'].map(async (t) => Number((await knex(t).count({ n: '*' }))[0]!.n)));
    // A catalog seeded before tags and running times existed is seeded again.
    const tagged = Number((await knex('content_tags').count({ n: '*' }))[0]!.n) > 0;
    const timed = (await knex('videos').whereNotNull('duration').first('id')) !== undefined;
    if (counts.every((n) => n === ROWS) && tagged && timed) return;
  } finally {
    await knex.destroy();
  }
  console.log(`seeding ${ROWS} rows per type into ${DATABASE_URL.replace(/^([\w+.-]+:\/\/)[^@/]*@/, '$1')} ...`);
  const seeded = spawnSync('npm', ['run', 'seed:scale', '-w', 'ops', '--', '--rows', String(ROWS)], {
    stdio: 'inherit',
    cwd: repoRoot,
    env: { ...process.env, DATABASE_URL },
  });
  if (seeded.status !== 0) throw new Error('seed:scale failed');
}

interface CapturedQuery {
  sql: string;
  bindings: readonly unknown[];
}

async function coldFigures(): Promise<void> {
  await ensureScaleCatalog();
  const knex = createKnex(DATABASE_URL);
  const config = loadConfig({
    BFF_PORT: '0',
    DATABASE_URL,
    CACHE_TTL_SECONDS: '0',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_SEARCH_PER_MINUTE: '100000',
  });
  // The running bff builds every listing's page anchors after each catalog change: time that for
  // a change made now, then the first deep pages find them ready.
  let anchorBuilds = 0;
  knex.on('query-response', (_r: unknown, q: { sql: string }) => {
    if (/row_number\(\)/i.test(q.sql)) anchorBuilds++;
  });
  const bff = await startBff(config, { knex });
  for (let i = 0; i < 600 && anchorBuilds < 6; i++) await new Promise((r) => setTimeout(r, 50));
  anchorBuilds = 0;
  const changed = performance.now();
  await bff.cache.catalogChanged();
  for (let i = 0; i < 600 && anchorBuilds < 6; i++) await new Promise((r) => setTimeout(r, 5));
  console.log(
    `\npage anchors of all 6 listings rebuilt ${(performance.now() - changed).toFixed(0)} ms after a catalog change (${anchorBuilds} builds)`,
  );
  const captured: CapturedQuery[] = [];
  knex.on('query', (q: CapturedQuery) => captured.push({ sql: q.sql, bindings: q.bindings }));
  const terms = (await knex('photosets').orderBy('id').first('updatename', 'modelname')) as { updatename: string; modelname: string };
  const cases: Array<[string, string]> = [
    ['photos alpha, page 9000', '/api/photos/9000'],
    ['photos by date, page 9000', '/api/photos-by-date/9000'],
    ['photos alpha, page 10000 (last)', '/api/photos/10000'],
    ['videos alpha, page 9000', '/api/videos/9000'],
    ['videos by date, page 9000', '/api/videos-by-date/9000'],
    ['vod, page 4500 (offset 89,980)', '/api/vod/4500'],
    ['updates, page 9000 (offset 269,970 of 300,000)', '/api/updates/9000'],
    ['updates, page 1', '/api/updates/1'],
    ['models, letter M', '/api/models/M'],
    [`model detail "${terms.modelname}"`, `/api/modelname/${encodeURIComponent(terms.modelname)}`],
  ];
  console.log(`\n## Cold (cache off), MariaDB, ${ROWS} rows per type; ms over HTTP: first, median of 9, max`);
  const explains = await timeCases(bff.url, cases, captured);
  await printExplains(knex, explains);
  await bff.close();
  await knex.destroy();
}

/** Each case 10 times over HTTP; prints first, median of the other 9, max; returns the SQL each case ran last. */
async function timeCases(
  url: string,
  cases: Array<[string, string]>,
  captured: CapturedQuery[],
): Promise<Array<[string, CapturedQuery[]]>> {
  const explains: Array<[string, CapturedQuery[]]> = [];
  for (const [label, path] of cases) {
    const times: number[] = [];
    for (let i = 0; i < 10; i++) {
      captured.length = 0;
      const started = performance.now();
      const res = await fetch(url + path);
      await res.arrayBuffer();
      times.push(performance.now() - started);
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    }
    explains.push([label, [...captured]]);
    const rest = times.slice(1);
    console.log(
      `${label.padEnd(62)} ${times[0]!.toFixed(1).padStart(7)} ${median(rest).toFixed(1).padStart(7)} ${Math.max(...rest)
        .toFixed(1)
        .padStart(7)}`,
    );
  }
  return explains;
}

async function printExplains(knex: Knex, explains: Array<[string, CapturedQuery[]]>): Promise<void> {
  console.log('\n## EXPLAIN of the SQL each request ran');
  for (const [label, queries] of explains) {
    console.log(`\n-- ${label}${queries.length ? '' : ' (no SQL)'}`);
    for (const q of queries) {
      const [rows] = (await knex.raw(`EXPLAIN ${q.sql}`, q.bindings as Knex.RawBinding[])) as [Array<Record<string, unknown>>];
      for (const r of rows) {
        console.log(
          `   ${String(r.table).padEnd(14)} type=${String(r.type).padEnd(6)} key=${String(r.key).padEnd(36)} rows=${String(r.rows).padEnd(7)} ${r.Extra ?? ''}`,
        );
      }
    }
  }
}

// ---- cold search ----

function exposeGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

async function coldSearch(): Promise<void> {
  await ensureScaleCatalog();
  const gc = exposeGc();
  const knex = createKnex(DATABASE_URL);
  const terms = (await knex('photosets').orderBy('id').first('updatename', 'modelname')) as { updatename: string; modelname: string };
  const commonWord = terms.updatename.split(' ')[0]!.toLowerCase();
  const search = (label: string, term: string): [string, string] => [
    `search ${label} ${JSON.stringify(term)}`,
    `/api/search/${encodeURIComponent(term)}`,
  ];
  const tag = String((await knex('content_tags').where({ content_type: 'photoset', content_id: 1 }).first('tag'))?.tag ?? 'studio');
  const filtered = (label: string, term: string, query: string): [string, string] => [
    `search ${label} ${JSON.stringify(term)} ?${query}`,
    `/api/search${term ? `/${encodeURIComponent(term)}` : ''}?${query}`,
  ];
  const cases = [
    search('common word', commonWord),
    // Filters and sorts count every match (the facets) and order them: the widest questions.
    filtered('common word, tag', commonWord, `tag=${encodeURIComponent(tag)}`),
    filtered('common word, newest', commonWord, 'sort=newest'),
    filtered('common word, 10-30 min, longest', commonWord, 'duration=medium&sort=longest'),
    filtered('tag alone (every row)', '', `tag=${encodeURIComponent(tag)}`),
    filtered('tag alone, past year, newest', '', `tag=${encodeURIComponent(tag)}&date=year&sort=newest`),
    filtered('type alone, longest (every row)', '', 'type=vods&sort=longest'),
    search('model name (rare)', terms.modelname),
    search('absent (no early stop)', 'zzqx'),
    search('1 char', 'q'),
    search('1 char absent (full walk)', '~'),
    search('2 chars', 'ch'),
    search('2 chars absent (full walk)', 'zq'),
  ];
  for (const mode of ['on', 'off'] as const) {
    const config = loadConfig({
      BFF_PORT: '0',
      DATABASE_URL,
      CACHE_TTL_SECONDS: '0',
      LOG_LEVEL: 'silent',
      SEARCH_INDEX: mode,
      // Every request here is a cache miss on purpose: no per-address limit in the way.
      RATE_LIMIT_SEARCH_PER_MINUTE: '100000',
    });
    const bff = await startBff(config, { knex: createKnex(DATABASE_URL) });
    const captured: CapturedQuery[] = [];
    bff.knex.on('query', (q: CapturedQuery) => captured.push({ sql: q.sql, bindings: q.bindings }));
    if (bff.searchIndex) {
      gc();
      const heapBefore = process.memoryUsage().heapUsed;
      const started = performance.now();
      // The build shares the event loop with requests; its slices bound how long one can wait.
      const loopDelay = monitorEventLoopDelay({ resolution: 5 });
      loopDelay.enable();
      await fetch(`${bff.url}/api/search/warm`);
      await bff.searchIndex.settled();
      loopDelay.disable();
      const { state, buildMs } = bff.searchIndex.status;
      if (state !== 'ready') throw new Error(`search index ${state}`);
      gc();
      const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 1e6;
      console.log(`\n## Cold search from the in-process index (cache off), ${ROWS} rows per type`);
      console.log(
        `index build (load + trigrams, 3 types): ${buildMs} ms (first search to ready: ${(performance.now() - started).toFixed(0)} ms); heap +${heapMb.toFixed(1)} MB = ${(heapMb / 3).toFixed(1)} MB per ${ROWS} rows`,
      );
      console.log(
        `event-loop delay during the build: p99 ${(loopDelay.percentile(99) / 1e6).toFixed(0)} ms, max ${(loopDelay.max / 1e6).toFixed(0)} ms`,
      );
    } else {
      console.log(`\n## Cold search from the database (SEARCH_INDEX=off, cache off), MariaDB, ${ROWS} rows per type`);
    }
    console.log('ms over HTTP: first, median of 9, max');
    const explains = await timeCases(bff.url, cases, captured);
    if (!bff.searchIndex) await printExplains(knex, explains.slice(0, 3));
    await bff.close();
    await bff.knex.destroy();
  }
  await knex.destroy();
}

// Children report their CPU time so the cost per request can be compared even on a busy machine.
function answerCpuQueries(): void {
  process.on('message', () => process.send?.(process.cpuUsage()));
}

function cpuMicros(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.once('message', (usage: NodeJS.CpuUsage) => resolve(usage.user + usage.system));
    child.send('cpu');
  });
}

const [mode, arg] = process.argv.slice(2);
if (mode) answerCpuQueries();
if (mode === 'serve-bff') await serveBff();
else if (mode === 'serve-bare') await serveBare(arg!);
else {
  await ensureScaleCatalog();
  if (!process.env.BENCH_SKIP_CACHED) await cachedThroughput();
  if (!process.env.BENCH_SKIP_COLD) await coldFigures();
  if (!process.env.BENCH_SKIP_SEARCH) await coldSearch();
}
