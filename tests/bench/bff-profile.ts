/**
 * npm run bench:bff-profile — what the bff's cached fast path costs beyond a bare Koa app sending the
 * same bytes, measured as CPU time per request over a fixed number of requests (from
 * /proc/<pid>/stat, user + system), which a busy machine disturbs far less than requests/s.
 *
 * The bff runs as `npm start` runs it (startStack: seeded SQLite catalog, access log at info,
 * metrics on); the bare Koa app in its own process. PROFILE_REQUESTS (60000) GETs of /api/photos/1
 * per side and round over PROFILE_CONNECTIONS (16) keep-alive connections from this process, in
 * rounds of alternating order (PROFILE_ROUNDS 3). PROFILE_CPU_PROF=<dir>: the bff also writes a
 * V8 CPU profile there (--cpu-prof), summarised as self time per function.
 */
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect } from 'node:net';
import Koa from 'koa';
import { startStack } from '../src/stack';
import { cpuSeconds } from '../src/wrk';

// /proc counts CPU in 10 ms ticks: 60,000 requests resolve ~0.17 µs per request.
const N = Number(process.env.PROFILE_REQUESTS ?? 60000);
const CONNECTIONS = Number(process.env.PROFILE_CONNECTIONS ?? 16);
const ROUNDS = Number(process.env.PROFILE_ROUNDS ?? 3);
const PROF_DIR = process.env.PROFILE_CPU_PROF ? resolve(process.env.PROFILE_CPU_PROF) : undefined;
const CACHED_PATH = '/api/photos/1';

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** `count` GETs over one keep-alive connection, one after another; resolves with the body length. */
function sendRequests(url: string, count: number): Promise<void> {
  const { port, pathname } = new URL(url);
  const request = Buffer.from(`GET ${pathname} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
  return new Promise((done, fail) => {
    const socket = connect(Number(port), '127.0.0.1');
    let pending: Buffer = Buffer.alloc(0);
    let answered = 0;
    socket.on('connect', () => socket.write(request));
    socket.on('error', fail);
    socket.on('data', (chunk: Buffer) => {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      for (;;) {
        const end = pending.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = pending.subarray(0, end).toString('latin1');
        if (!head.startsWith('HTTP/1.1 200')) return fail(new Error(`${url}: ${head.split('\r\n')[0]}`));
        const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? NaN);
        if (pending.length < end + 4 + length) return;
        pending = pending.subarray(end + 4 + length);
        if (++answered === count) return (socket.end(), done());
        socket.write(request);
      }
    });
  });
}

async function load(url: string, total: number): Promise<number> {
  const started = performance.now();
  const each = Math.ceil(total / CONNECTIONS);
  await Promise.all(Array.from({ length: CONNECTIONS }, () => sendRequests(url, each)));
  return (each * CONNECTIONS) / ((performance.now() - started) / 1000);
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
    console.log(JSON.stringify({ url: `http://127.0.0.1:${port}` }));
  });
}

interface Frame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface Profile {
  nodes: Array<{ id: number; callFrame: Frame }>;
  samples: number[];
  timeDeltas: number[];
}

/** Self time per function (ms) of the largest V8 CPU profile in `dir`, top `top`. */
function profileSummary(dir: string, top: number): string[] {
  const file = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => join(dir, f))
    .sort((a, b) => readFileSync(b).length - readFileSync(a).length)[0];
  if (!file) return ['(no profile written)'];
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const self = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id)!;
    const name = `${frame.functionName || '(anonymous)'} ${frame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/(bff|contracts)\//, '$1/')}:${frame.lineNumber + 1}`;
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    self.set(name, (self.get(name) ?? 0) + dt);
    total += dt;
  });
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, t]) => `${t.toFixed(0).padStart(7)} ms ${((100 * t) / total).toFixed(1).padStart(5)} %  ${name}`);
}

const [mode, arg] = process.argv.slice(2);
if (mode === 'serve-bare') await serveBare(arg!);
else {
  const lines: string[] = [];
  const stack = await startStack({
    frontDoor: 'nginx',
    accessLog: { service: 'bff', lines },
    serviceEnv: PROF_DIR ? { bff: { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${PROF_DIR}` } } : undefined,
  });
  const bare = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), 'serve-bare', stack.bffUrl], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const bareUrl = await new Promise<string>((r) =>
      createInterface({ input: bare.stdout! }).once('line', (l) => r((JSON.parse(l) as { url: string }).url)),
    );
    const sides = {
      bff: { url: stack.bffUrl + CACHED_PATH, pid: stack.children.bff.proc.pid! },
      bare: { url: bareUrl + CACHED_PATH, pid: bare.pid! },
    };
    for (const side of Object.values(sides)) await load(side.url, 2000);
    console.log(`${CACHED_PATH}: ${N} requests per side and round, ${CONNECTIONS} keep-alive connections, ${ROUNDS} rounds\n`);
    const cpu = { bff: [] as number[], bare: [] as number[] };
    const rate = { bff: [] as number[], bare: [] as number[] };
    for (let round = 1; round <= ROUNDS; round++) {
      const order = round % 2 ? (['bff', 'bare'] as const) : (['bare', 'bff'] as const);
      for (const name of order) {
        const before = cpuSeconds([sides[name].pid]);
        rate[name].push(await load(sides[name].url, N));
        cpu[name].push(((cpuSeconds([sides[name].pid]) - before) / N) * 1e6);
      }
      console.log(
        `round ${round}: bff ${cpu.bff.at(-1)!.toFixed(1)} µs CPU/req (${rate.bff.at(-1)!.toFixed(0)} req/s), bare koa ${cpu.bare.at(-1)!.toFixed(1)} µs (${rate.bare.at(-1)!.toFixed(0)} req/s)`,
      );
    }
    const ratios = cpu.bff.map((b, i) => cpu.bare[i]! / b);
    console.log(
      `CPU per request: bff median ${median(cpu.bff).toFixed(1)} µs, bare koa ${median(cpu.bare).toFixed(1)} µs; bare / bff median ${median(ratios).toFixed(3)} (min ${Math.min(...ratios).toFixed(3)}, max ${Math.max(...ratios).toFixed(3)})`,
    );
  } finally {
    bare.kill('SIGTERM');
    await stack.stop();
  }
  if (PROF_DIR) {
    console.log(`\n## bff self time per function (--cpu-prof, whole run)`);
    for (const line of profileSummary(PROF_DIR, 30)) console.log(line);
  }
}
