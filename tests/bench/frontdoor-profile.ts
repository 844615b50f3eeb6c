/**
 * npm run bench:frontdoor-profile — what a cached API answer costs nginx beyond a static file of the
 * same bytes, with instruments that do not swing with the machine's load:
 *
 * 1. Instructions per request (valgrind --tool=callgrind): a copy of the config `startStack` renders,
 *    run as one nginx process (`daemon off; master_process off;`) under callgrind, once per kind:
 *    a warm-up, then PROFILE_REQUESTS (2000) requests of one kind over one keep-alive connection.
 *    Per request = (run - warm-up-only run) / N. The copy keeps cached answers fresh for an hour, so
 *    the count is the hit alone (the real 5 s revalidation is one bff request per 5 s, not per hit).
 *    Then the functions that differ most (callgrind_annotate, per request).
 * 2. System calls per request (strace -c) of the stack's own nginx worker, N requests of each kind.
 *
 * PROFILE_SKIP_CALLGRIND / PROFILE_SKIP_STRACE leave one out; PROFILE_KEEP keeps the callgrind files.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { raw } from '@media-site/media-service/testing/http';
import { freePort } from '../../scripts/lib/process';
import { repoRoot } from '../../scripts/lib/site';
import { startStack } from '../src/stack';

const N = Number(process.env.PROFILE_REQUESTS ?? 2000);
const WARM = 200;
const CACHED_PATH = '/api/photos/1';

/** `count` GETs of `path`, one after another over one keep-alive connection, as wrk sends them. */
function sendRequests(port: number, path: string, count: number): Promise<void> {
  const request = Buffer.from(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let pending: Buffer = Buffer.alloc(0);
    let done = 0;
    socket.on('connect', () => (count > 0 ? socket.write(request) : (socket.end(), resolve())));
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        const end = pending.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = pending.subarray(0, end).toString('latin1');
        if (!head.startsWith('HTTP/1.1 200')) return reject(new Error(`${path}: ${head.split('\r\n')[0]}`));
        const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? NaN);
        if (Number.isNaN(length)) return reject(new Error(`${path}: no Content-Length`));
        if (pending.length < end + 4 + length) return;
        pending = pending.subarray(end + 4 + length);
        done += 1;
        if (done === count) {
          socket.end();
          return resolve();
        }
        socket.write(request);
      }
    });
  });
}

async function waitForPort(port: number, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i += 1) {
    if (child.exitCode !== null) throw new Error(`nginx under callgrind exited with ${child.exitCode}`);
    const open = await new Promise<boolean>((r) => {
      const s = connect(port, '127.0.0.1', () => (s.end(), r(true)));
      s.on('error', () => r(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('nginx under callgrind did not start listening');
}

/** Self (exclusive) instruction counts per function from callgrind_annotate. */
function selfCounts(file: string): { total: number; fns: Map<string, number> } {
  const out = spawnSync('callgrind_annotate', ['--threshold=100', '--inclusive=no', file], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const fns = new Map<string, number>();
  let total = NaN;
  for (const line of out.stdout.split('\n')) {
    // "  1,234 (0.5%)  file:function [object]": the count, then the name.
    const text = line.trim();
    const space = text.indexOf(' ');
    if (space < 0 || !/^[\d,]+$/.test(text.slice(0, space))) continue;
    const n = Number(text.slice(0, space).replaceAll(',', ''));
    let name = text.slice(space).trim();
    if (name.startsWith('(')) name = name.slice(name.indexOf(')') + 1).trim();
    if (name.includes(' [')) name = name.slice(0, name.lastIndexOf(' ['));
    if (name.startsWith('PROGRAM TOTALS')) total = n;
    else fns.set(name, (fns.get(name) ?? 0) + n);
  }
  return { total, fns };
}

const stack = await startStack({ frontDoor: 'nginx' });
const staticName = `__bench-profile-${process.pid}.json`;
const staticFile = join(repoRoot, 'frontend/dist', staticName);
const work = join(stack.dataDir, 'nginx-profile');
try {
  await raw(stack.url, CACHED_PATH);
  const cached = await raw(stack.url, CACHED_PATH);
  if (String(cached.headers['x-cache-status']) !== 'HIT') throw new Error('expected a cache HIT');
  writeFileSync(staticFile, cached.body);
  const kinds = { static: `/${staticName}`, api: CACHED_PATH } as const;
  console.log(
    `${CACHED_PATH} (${cached.body.length} bytes) vs a static file of the same bytes; ${N} requests, one keep-alive connection\n`,
  );

  // ---- 1. callgrind ----
  if (!process.env.PROFILE_SKIP_CALLGRIND) {
    const prefix = join(stack.dataDir, 'nginx');
    const oldPort = new URL(stack.url).port;
    const port = await freePort();
    const copy = (text: string) =>
      text
        .replaceAll(prefix, work)
        .replace(`listen 127.0.0.1:${oldPort};`, `listen 127.0.0.1:${port};`)
        .replace('proxy_cache_valid 200 5s;', 'proxy_cache_valid 200 1h;');
    const runs: Record<string, { total: number; fns: Map<string, number> }> = {};
    for (const kind of ['warm-up only', 'static', 'api'] as const) {
      rmSync(work, { recursive: true, force: true });
      mkdirSync(work, { recursive: true });
      cpSync(join(prefix, 'snippets'), join(work, 'snippets'), { recursive: true });
      for (const f of readdirSync(join(work, 'snippets')))
        writeFileSync(join(work, 'snippets', f), copy(readFileSync(join(work, 'snippets', f), 'utf8')));
      for (const f of ['nginx.conf', 'front-door.conf']) writeFileSync(join(work, f), copy(readFileSync(join(prefix, f), 'utf8')));
      const out = join(work, 'callgrind.out');
      const child = spawn(
        'valgrind',
        [
          '--tool=callgrind',
          `--callgrind-out-file=${out}`,
          'nginx',
          '-e',
          'stderr',
          '-p',
          work,
          '-c',
          join(work, 'nginx.conf'),
          '-g',
          'daemon off; master_process off;',
        ],
        { stdio: ['ignore', 'ignore', 'pipe'] },
      );
      let stderr = '';
      child.stderr!.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
      await waitForPort(port, child);
      // Warm-up: both kinds (fills the API cache of this copy, opens the files), then the measured run.
      for (const path of Object.values(kinds)) await sendRequests(port, path, WARM);
      if (kind !== 'warm-up only') await sendRequests(port, kinds[kind], N);
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGQUIT');
      await exited;
      runs[kind] = selfCounts(out);
      if (!Number.isFinite(runs[kind].total)) throw new Error(`no callgrind totals: ${stderr}`);
      if (process.env.PROFILE_KEEP) cpSync(out, join(repoRoot, `callgrind.${kind.replace(/\W+/g, '-')}.out`));
    }
    const base = runs['warm-up only']!;
    const per = (kind: 'static' | 'api') => (runs[kind]!.total - base.total) / N;
    console.log('## Instructions per request (callgrind)');
    console.log(`static file  ${per('static').toFixed(0)}`);
    console.log(`cached API   ${per('api').toFixed(0)}  (${(per('api') / per('static')).toFixed(2)}x static)\n`);
    const names = new Set([...runs.static!.fns.keys(), ...runs.api!.fns.keys()]);
    const diff = [...names]
      .map((name) => {
        const s = ((runs.static!.fns.get(name) ?? 0) - (base.fns.get(name) ?? 0)) / N;
        const a = ((runs.api!.fns.get(name) ?? 0) - (base.fns.get(name) ?? 0)) / N;
        return { name, s, a, d: a - s };
      })
      .sort((x, y) => Math.abs(y.d) - Math.abs(x.d))
      .slice(0, 25);
    console.log('## Functions that differ most, instructions per request (self): static, API, API - static');
    for (const { name, s, a, d } of diff)
      console.log(`${s.toFixed(0).padStart(7)} ${a.toFixed(0).padStart(7)} ${d.toFixed(0).padStart(7)}  ${name}`);
    console.log('');
  }

  // ---- 2. strace -c on the stack's own worker ----
  if (!process.env.PROFILE_SKIP_STRACE) {
    const master = readFileSync(join(stack.dataDir, 'nginx', 'nginx.pid'), 'utf8').trim();
    // The worker, not the cache manager or loader (the master's other children).
    const worker = readFileSync(`/proc/${master}/task/${master}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('worker process'));
    if (!worker) throw new Error('no nginx worker found');
    const port = Number(new URL(stack.url).port);
    const tables: Record<string, Map<string, number>> = {};
    for (const [kind, path] of Object.entries(kinds)) {
      await sendRequests(port, path, WARM);
      const file = join(stack.dataDir, `strace-${kind}.txt`);
      const strace = spawn('strace', ['-c', '-f', '-o', file, '-p', worker], { stdio: 'ignore' });
      await new Promise((r) => setTimeout(r, 1000));
      await sendRequests(port, path, N);
      await new Promise((r) => setTimeout(r, 200));
      const exited = new Promise((r) => strace.once('exit', r));
      strace.kill('SIGINT');
      await exited;
      const counts = new Map<string, number>();
      for (const line of readFileSync(file, 'utf8').split('\n')) {
        const m = /^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(\w+)\s*$/.exec(line);
        if (m && m[2] !== 'total') counts.set(m[2]!, Number(m[1]));
      }
      tables[kind] = counts;
    }
    const names = [...new Set([...tables.static!.keys(), ...tables.api!.keys()])].sort();
    console.log(`## System calls per request (strace -c -f on the worker, ${N} requests; includes a timer tick or two)`);
    console.log('syscall            static      API');
    let s = 0;
    let a = 0;
    for (const name of names) {
      const sv = (tables.static!.get(name) ?? 0) / N;
      const av = (tables.api!.get(name) ?? 0) / N;
      s += sv;
      a += av;
      console.log(`${name.padEnd(16)} ${sv.toFixed(3).padStart(8)} ${av.toFixed(3).padStart(8)}`);
    }
    console.log(`${'total'.padEnd(16)} ${s.toFixed(3).padStart(8)} ${a.toFixed(3).padStart(8)}`);
  }
} finally {
  rmSync(staticFile, { force: true });
  await stack.stop();
}
