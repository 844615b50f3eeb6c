/**
 * npm run bench:frontdoor — the front door and its API cache: the whole site as `npm start` runs it (real
 * nginx with the repo's config, bff, media service, seeded SQLite catalog), measured through nginx.
 *
 * 1. Throughput: wrk (one thread, BENCH_CONNECTIONS 64, BENCH_SECONDS 5) on a cached `/api/photos/1`
 *    and on a static file with the same bytes served by the same nginx server (written into the SPA
 *    folder for the run), in rounds of alternating order (BENCH_ROUNDS 5): nginx CPU per request of
 *    each side and the ratios, median with the spread. Goal >= 1.0x: a cached answer costs nginx no more than a static file.
 * 2. Freshness: a takedown (then a restore) of an item on that page with `npm run catalog`, and the
 *    time until the front door answers without it (with it); requests back to back, BENCH_FRESH_RUNS 5.
 *    Embedded default: no Redis, the bff polls the generation (CACHE_GENERATION_POLL_MS, 500 ms);
 *    BENCH_REDIS_URL runs the compose shape instead (the command announces it on pub/sub).
 * 3. Stampede: 1,000 concurrent requests for a page nobody asked for yet; the bff's access lines for
 *    it are counted (goal 1), with the visitors' wait beside the bff's own answer time.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { raw } from '@media-site/media-service/testing/http';
import { runOpsCommand } from '../../ops/src/commands/registry';
import { repoRoot } from '../../scripts/lib/site';
import { startStack } from '../src/stack';
import { cpuSeconds, wrkRate } from '../src/wrk';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const FRESH_RUNS = Number(process.env.BENCH_FRESH_RUNS ?? 5);
const REDIS_URL = process.env.BENCH_REDIS_URL || undefined;
const STAMPEDE = 1000;
const CACHED_PATH = '/api/photos/1';
const LIMIT_MS = 30_000;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
const ms = (x: number) => `${x.toFixed(0)} ms`;

/** CPU seconds (user + system) of nginx's workers: the children of the master in `<prefix>/nginx.pid`. */
function nginxCpu(prefix: string): number {
  const master = readFileSync(join(prefix, 'nginx.pid'), 'utf8').trim();
  return cpuSeconds(readFileSync(`/proc/${master}/task/${master}/children`, 'utf8').trim().split(/\s+/).filter(Boolean));
}

/**
 * Requests per second, and nginx's CPU time per request: on a busy shared machine the first swings
 * with the neighbours, the second far less.
 */
function wrk(url: string, prefix: string): { perSecond: number; cpuMicros: number } {
  return wrkRate(['-t1', `-c${CONNECTIONS}`, `-d${SECONDS}s`, '--timeout', '10s', url], () => nginxCpu(prefix));
}

const bffLines: string[] = [];
const stack = await startStack({
  frontDoor: 'nginx',
  redisUrl: REDIS_URL,
  // One access line per request the bff answers: the stampede count.
  accessLog: { service: 'bff', lines: bffLines },
});
const staticName = `__bench-frontdoor-${process.pid}.json`;
const staticFile = join(repoRoot, 'frontend/dist', staticName);
try {
  const header = (res: { headers: Record<string, unknown> }, name: string) => String(res.headers[name] ?? '');
  // ---- 1. cached answer vs a static file of the same bytes, same nginx, same server ----
  await raw(stack.url, CACHED_PATH);
  const cached = await raw(stack.url, CACHED_PATH);
  if (header(cached, 'x-cache-status') !== 'HIT') throw new Error(`expected a cache HIT, got ${header(cached, 'x-cache-status')}`);
  writeFileSync(staticFile, cached.body);
  const asStatic = await raw(stack.url, `/${staticName}`);
  if (asStatic.status !== 200 || !asStatic.body.equals(cached.body)) throw new Error('the static copy is not served as the same bytes');
  console.log(
    `Front door (${stack.url}), ${CACHED_PATH}: ${cached.body.length} bytes; static /${staticName}: ${asStatic.body.length} bytes`,
  );
  console.log(`wrk -t1 -c${CONNECTIONS} -d${SECONDS}s, ${ROUNDS} alternating rounds\n`);
  const prefix = join(stack.dataDir, 'nginx');
  const ratios: number[] = [];
  const cpuRatios: number[] = [];
  const cpu = { cached: [] as number[], static: [] as number[] };
  for (let round = 1; round <= ROUNDS; round += 1) {
    // Alternate the order so neither side always runs on a warmer (or hotter) machine.
    const order = round % 2 ? (['cached', 'static'] as const) : (['static', 'cached'] as const);
    const result: Partial<Record<'cached' | 'static', { perSecond: number; cpuMicros: number }>> = {};
    for (const side of order) result[side] = wrk(`${stack.url}${side === 'cached' ? CACHED_PATH : `/${staticName}`}`, prefix);
    const api = result.cached!;
    const file = result.static!;
    ratios.push(api.perSecond / file.perSecond);
    cpuRatios.push(file.cpuMicros / api.cpuMicros);
    cpu.cached.push(api.cpuMicros);
    cpu.static.push(file.cpuMicros);
    console.log(
      `round ${round} (${order.join(' then ')}): cached ${api.perSecond.toFixed(0)} req/s (${api.cpuMicros.toFixed(1)} us nginx CPU/req), static ${file.perSecond.toFixed(0)} req/s (${file.cpuMicros.toFixed(1)} us), ratio ${(api.perSecond / file.perSecond).toFixed(2)}x`,
    );
  }
  const spread = (xs: number[]) =>
    `median ${median(xs).toFixed(2)}x (min ${Math.min(...xs).toFixed(2)}x, max ${Math.max(...xs).toFixed(2)}x)`;
  const micros = (xs: number[]) =>
    `median ${median(xs).toFixed(1)} us (min ${Math.min(...xs).toFixed(1)}, max ${Math.max(...xs).toFixed(1)})`;
  console.log(`nginx CPU per request: cached ${micros(cpu.cached)}; static ${micros(cpu.static)}`);
  console.log(`cached API answer / static file, requests/s: ${spread(ratios)}; goal >= 1.0x (a busy machine swings this one)`);
  console.log(
    `static / cached nginx CPU per request (the same ratio, less disturbed by neighbours; instructions: npm run bench:frontdoor-profile): ${spread(cpuRatios)}\n`,
  );

  // ---- 2. freshness: change -> visible at the front door ----
  const env = { DATABASE_URL: stack.databaseUrl, MEDIA_ROOT: stack.mediaRoot, ...(REDIS_URL ? { REDIS_URL } : {}) };
  async function catalog(...argv: string[]): Promise<void> {
    const err: string[] = [];
    const code = await runOpsCommand(argv, { env, out: () => {}, err: (s) => err.push(s) });
    if (code !== 0) throw new Error(`catalog ${argv.join(' ')}: ${err.join('\n')}`);
  }
  async function until(listed: boolean, path: string): Promise<number> {
    const since = Date.now();
    while (Date.now() - since < LIMIT_MS) {
      if ((await raw(stack.url, CACHED_PATH)).body.toString().includes(`"path":"${path}"`) === listed) return Date.now() - since;
    }
    throw new Error(`${path} was still ${listed ? 'missing' : 'listed'} after ${LIMIT_MS} ms`);
  }
  const page = JSON.parse(cached.body.toString()) as Array<{ path: string }>;
  const gone: number[] = [];
  const goneFromStart: number[] = [];
  const back: number[] = [];
  for (let run = 0; run < FRESH_RUNS; run += 1) {
    const { path } = page[run % page.length]!;
    // Cached (HIT) before the change, and the change lands anywhere in the poll cycle.
    await raw(stack.url, CACHED_PATH);
    await new Promise((r) => setTimeout(r, 137 * (run + 1)));
    const started = Date.now();
    await catalog('takedown', `/photos/${path}`, '--by', 'bench', '--reason', 'bench');
    const returned = Date.now();
    gone.push(await until(false, path));
    goneFromStart.push(Date.now() - started);
    await catalog('restore', `/photos/${path}`, '--by', 'bench', '--reason', 'bench');
    back.push(await until(true, path));
    console.log(
      `freshness ${run + 1}: takedown -> gone at the front door ${ms(gone.at(-1)!)} after the command returned (${ms(goneFromStart.at(-1)!)} after it started; command ${ms(returned - started)}), restore -> back ${ms(back.at(-1)!)}`,
    );
  }
  const shape = REDIS_URL ? 'Redis pub/sub (compose shape)' : 'no Redis, generation poll (embedded default)';
  console.log(
    `freshness (${shape}): takedown median ${ms(median(gone))}, max ${ms(Math.max(...gone))}; restore median ${ms(median(back))}, max ${ms(Math.max(...back))} (goal <= 1000 ms)\n`,
  );

  // ---- 3. cold-cache stampede ----
  const term = `b${process.pid % 10}`;
  const path = `/api/search/${term}`;
  const lines = () =>
    bffLines
      .map((l) => {
        try {
          return JSON.parse(l) as { msg?: string; url?: string; ms?: number };
        } catch {
          return {};
        }
      })
      .filter((e) => e.msg === 'request' && e.url === path);
  const before = lines().length;
  const waits: number[] = [];
  const t0 = performance.now();
  const answers = await Promise.all(
    Array.from({ length: STAMPEDE }, async () => {
      const res = await raw(stack.url, path);
      waits.push(performance.now() - t0);
      return res;
    }),
  );
  const failed = answers.filter((a) => a.status !== 200).length;
  // Access lines go out in batches, at least every second.
  let seen = -1;
  for (let i = 0; i < 10 && seen !== lines().length - before; i += 1) {
    seen = lines().length - before;
    await new Promise((r) => setTimeout(r, 1200));
  }
  const upstream = lines().slice(before);
  const bffMs = upstream.map((e) => e.ms ?? NaN);
  console.log(
    `stampede: ${STAMPEDE} concurrent GET ${path} -> ${upstream.length} bff request(s) (goal 1), ${failed} non-200; bff answer ${bffMs.map((x) => `${x} ms`).join(', ')}; visitors waited median ${ms(median(waits))}, max ${ms(Math.max(...waits))}`,
  );
} finally {
  rmSync(staticFile, { force: true });
  await stack.stop();
}
