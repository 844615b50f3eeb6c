// Replicas behind one nginx: `npm run bench:replicas` (env: BENCH_DATABASE_URL, BENCH_REDIS_URL,
// BENCH_SECONDS (default 10), BENCH_CONNECTIONS (64), BENCH_NGINX_WORKERS (1), BENCH_KEEPALIVES
// ("16,128": the site_bff upstream's keepalive values to compare), BENCH_REPLICAS ("1,2")).
// For each (replica count, keepalive): fresh bff processes and a fresh nginx from the repo's template,
// wrk on the cached listing through nginx, and
//   - requests/s and p99 (wrk --latency),
//   - upstream connections closed during the run: TCP sockets to or from the bff ports in TIME_WAIT
//     (whichever side closed holds one for 60 s; fresh ports per scenario, so nothing is left over),
//   - CPU per request of the bffs and of nginx (/proc/<pid>/stat, all processes of each).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { createKnex, migrateLatest } from '@media-site/db';
import { seedDemoCatalog } from '@media-site/ops';
import { startBff } from '@media-site/bff/server';
import { loadConfig } from '@media-site/bff/config';
import { createLogOutput } from '@media-site/bff/logger';
import { startNginx } from '../../scripts/lib/nginx';

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/bench_replicas';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const WORKERS = Number(process.env.BENCH_NGINX_WORKERS ?? 1);
const KEEPALIVES = (process.env.BENCH_KEEPALIVES ?? '16,128').split(',').map(Number);
const REPLICAS = (process.env.BENCH_REPLICAS ?? '1,2').split(',').map(Number);
const PATH = '/api/photos/1';
const TICK_US = 1_000_000 / Number(spawnSync('getconf', ['CLK_TCK']).stdout.toString().trim() || 100);

async function serveBff(): Promise<void> {
  const config = loadConfig({ BFF_PORT: '0', DATABASE_URL, REDIS_URL, CACHE_KEY_PREFIX: `bench-replicas:`, LOG_LEVEL: 'info' });
  const { logger, destination } = createLogOutput(config.LOG_LEVEL, '/dev/null');
  const bff = await startBff(config, { logger, logDestination: destination });
  console.log(JSON.stringify({ url: bff.url, port: bff.port }));
}

function startChild(): Promise<{ child: ChildProcess; url: string; port: number }> {
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), 'serve-bff'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bff exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (line) =>
      resolve({ child, ...(JSON.parse(line) as { url: string; port: number }) }),
    );
  });
}

async function ensureCatalog(): Promise<void> {
  const url = new URL(DATABASE_URL);
  const name = decodeURIComponent(url.pathname.slice(1));
  if (url.protocol.startsWith('mysql') && /^\w+$/.test(name)) {
    url.pathname = '/';
    const admin = createKnex(url.toString());
    await admin.raw(`CREATE DATABASE IF NOT EXISTS \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    await admin.destroy();
  }
  const knex = createKnex(DATABASE_URL);
  try {
    await migrateLatest(knex);
    if (!(await knex('photosets').first('id'))) await seedDemoCatalog(knex);
  } finally {
    await knex.destroy();
  }
}

/** utime + stime of a process and its children's threads, in µs. */
function cpuOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_US;
  } catch {
    return 0;
  }
}

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

function timeWait(ports: number[]): number {
  const filter = ports.map((p) => `dport = :${p} or sport = :${p}`).join(' or ');
  const out = spawnSync('ss', ['-Htan', 'state', 'time-wait', `( ${filter} )`]).stdout.toString();
  return out.split('\n').filter(Boolean).length;
}

interface WrkResult {
  rps: number;
  p99: string;
  errors: string;
  non2xx: number;
}

function wrk(url: string, seconds: number): Promise<WrkResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', ['-t2', `-c${CONNECTIONS}`, `-d${seconds}s`, '--latency', url], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.once('error', reject);
    child.once('exit', () => {
      const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
      if (!Number.isFinite(rps)) return reject(new Error(`wrk output: ${out}`));
      resolve({
        rps,
        p99: /99%\s+(\S+)/.exec(out)?.[1] ?? '?',
        errors: /Socket errors: (.*)/.exec(out)?.[1] ?? 'none',
        non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0),
      });
    });
  });
}

async function scenario(replicas: number, keepalive: number): Promise<void> {
  const bffs = await Promise.all(Array.from({ length: replicas }, () => startChild()));
  const work = await mkdtemp(join(tmpdir(), 'bench-replicas-'));
  const nginx = await startNginx({
    bffUrl: bffs.map((b) => b.url),
    mediaUrl: 'http://127.0.0.1:9',
    spaDir: work,
    mediaRoot: work,
    workDir: join(work, 'nginx'),
    workers: WORKERS,
    vars: { BFF_KEEPALIVE: String(keepalive) },
  });
  try {
    const url = nginx.url + PATH;
    const probe = await fetch(url);
    if (probe.status !== 200) throw new Error(`${PATH} through nginx: ${probe.status}`);
    await wrk(url, 2);
    const ports = bffs.map((b) => b.port);
    // The ports are fresh; the warm-up's closes are subtracted.
    const nginxPid = Number(readFileSync(join(nginx.prefix, 'nginx.pid'), 'utf8'));
    const nginxPids = () => [nginxPid, ...childrenOf(nginxPid)];
    const cpu = () => ({
      bff: bffs.reduce((sum, b) => sum + cpuOf(b.child.pid!), 0),
      nginx: nginxPids().reduce((sum, pid) => sum + cpuOf(pid), 0),
    });
    const closedBefore = timeWait(ports);
    const before = cpu();
    const r = await wrk(url, SECONDS);
    const after = cpu();
    const closed = timeWait(ports) - closedBefore;
    const requests = r.rps * SECONDS;
    console.log(
      `${String(replicas).padStart(8)} | ${String(keepalive).padStart(9)} | ${r.rps.toFixed(0).padStart(7)} | ${r.p99.padStart(8)} | ${String(closed).padStart(15)} | ` +
        `${((after.bff - before.bff) / requests).toFixed(0).padStart(10)} | ${((after.nginx - before.nginx) / requests).toFixed(0).padStart(12)} | ${r.non2xx} non-2xx, socket errors: ${r.errors}`,
    );
  } finally {
    await nginx.stop();
    for (const b of bffs) b.child.kill('SIGTERM');
    await rm(work, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (process.argv[2] === 'serve-bff') return serveBff();
  await ensureCatalog();
  console.log(`## ${PATH} through nginx (${WORKERS} worker${WORKERS > 1 ? 's' : ''}), wrk -t2 -c${CONNECTIONS} -d${SECONDS}s`);
  console.log('replicas | keepalive |   req/s |      p99 | upstream closed | bff µs/req | nginx µs/req | errors');
  for (const keepalive of KEEPALIVES) for (const replicas of REPLICAS) await scenario(replicas, keepalive);
  process.exit(0);
}

await main();
