/**
 * npm run bench:media-send — koa-send beside the media service's own sender for the whole-file sends
 * it is made for (a public thumbnail original and a free photo, GET without Range), in one run:
 * requests/s and CPU time per request at 64 connections against nginx static as the anchor, system
 * calls per request (strace), the headers each answers, and how each resolves awkward paths. Needs
 * wrk and strace. A shared machine: read the CPU figures and the ratios, and take the median of
 * several runs (BENCH_RUNS, default 3). media-service/README.md ("koa-send") reads it.
 */
import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { raw } from '@media-site/media-service/testing/http';
import { freePort, startNginx } from '../src/nginx';
import { cpuSeconds, wrkRate } from '../src/wrk';

const repo = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CONNECTIONS = 64;
// Accept-Encoding as browsers send it: koa-send looks for .br/.gz siblings when it sees one.
const BROWSER = { 'Accept-Encoding': 'gzip, deflate, br' };
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

interface Server {
  url: string;
  child: ChildProcess;
  pids: number[];
}

async function started(child: ChildProcess, url: string, probe: string): Promise<Server> {
  for (let i = 0; i < 300; i += 1) {
    if (
      await fetch(url + probe).then(
        (r) => r.status < 500,
        () => false,
      )
    )
      return { url, child, pids: [child.pid ?? 0] };
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${url} did not start`);
}

async function startSender(mode: string, root: string): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', join(repo, 'tests/bench/media-send-server.ts'), mode, root, String(port)], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return started(child, `http://127.0.0.1:${port}`, '/members/photosthumbs/bench/large.jpg');
}

async function startService(root: string, work: string): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', join(repo, 'media-service/src/main.ts')], {
    env: {
      ...process.env,
      MEDIA_PORT: String(port),
      MEDIA_ROOT: root,
      VARIANT_CACHE_DIR: join(work, 'variants'),
      MEDIA_TOKEN_KEYS: 'bench:benchmark-only-secret-key',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return started(child, `http://127.0.0.1:${port}`, '/healthz');
}

/**
 * wrk, one thread (autocannon's JS client, not the servers, sets the pace on a 663 KB body): requests
 * per second, and the servers' CPU time per request, which a busy shared machine disturbs far less.
 */
function rate(url: string, pids: number[]): { perSecond: number; cpuMicros: number } {
  const args = ['-t1', `-c${CONNECTIONS}`, '-d5s', '--timeout', '10s', '-H', `Accept-Encoding: ${BROWSER['Accept-Encoding']}`, url];
  return wrkRate(args, () => cpuSeconds(pids));
}

/**
 * System calls per request over `count` sequential requests, by strace: the file-system class (open,
 * stat, access, readlink...) and the reads and writes (file and socket alike). What each sender asks
 * of the kernel, without timing.
 */
async function systemCalls(pid: number, url: string, method: 'GET' | 'HEAD', count: number): Promise<string> {
  const out = join(work, `strace-${pid}.txt`);
  const strace = spawn('strace', ['-f', '-c', '-e', 'trace=%file,read,pread64,write,writev', '-o', out, '-p', String(pid)], {
    stdio: 'ignore',
  });
  await new Promise((r) => setTimeout(r, 500));
  const { pathname } = new URL(url);
  for (let i = 0; i < count; i += 1) await raw(url, pathname, BROWSER, method);
  const exited = new Promise((r) => strace.once('exit', r));
  strace.kill('SIGINT');
  await exited;
  const calls: string[] = [];
  for (const line of readFileSync(out, 'utf8').split('\n')) {
    const m = /^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(\w+)$/.exec(line);
    if (m && m[2] !== 'total') calls.push(`${m[2]} ${(Number(m[1]) / count).toFixed(1)}`);
  }
  return calls.sort().join(', ');
}

/** nginx's worker processes, once they have named themselves (the cache loader exits after a minute). */
async function nginxWorkers(master: number): Promise<number[]> {
  for (let i = 0; i < 100; i += 1) {
    const children = readFileSync(`/proc/${master}/task/${master}/children`, 'utf8').trim().split(' ').filter(Boolean).map(Number);
    const workers = children.filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('worker process'));
    if (workers.length > 0) return workers;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('no nginx worker process');
}

/** Status and the headers that matter to caches and resumes; the path goes on the wire as written. */
async function probe(base: string, path: string): Promise<{ status: string; headers: Record<string, string> }> {
  // 1 s at most: a server that opens a FIFO waits in open(2) for a writer that never comes.
  const timeout = new Promise<null>((r) => setTimeout(() => r(null), 1000).unref());
  const res = await Promise.race([raw(base, path, BROWSER), timeout]);
  if (!res) return { status: 'no answer in 1 s', headers: {} };
  const headers: Record<string, string> = {};
  for (const name of ['content-type', 'content-length', 'etag', 'last-modified', 'cache-control', 'accept-ranges']) {
    headers[name] = String(res.headers[name] ?? '(none)');
  }
  return { status: String(res.status), headers };
}

const work = await mkdtemp(join(tmpdir(), 'bench-media-send-'));
const root = join(work, 'media');
const children: ChildProcess[] = [];
try {
  for (const dir of ['photosthumbs/bench', 'freephotos/bench']) mkdirSync(join(root, dir), { recursive: true });
  const photo = (width: number, height: number) =>
    sharp({ create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 30 } } })
      .jpeg({ quality: 80 })
      .toBuffer();
  // The seed's sizes (ops/src/seed/media.ts): a 640x427 cover, a 1600x1067 free photo.
  const thumb = await photo(640, 427);
  const free = await photo(1600, 1067);
  writeFileSync(join(root, 'photosthumbs/bench/large.jpg'), thumb);
  writeFileSync(join(root, 'freephotos/bench/free-01.jpg'), free);
  writeFileSync(join(work, 'secret.txt'), 'outside MEDIA_ROOT');
  symlinkSync(join(work, 'secret.txt'), join(root, 'photosthumbs/bench/escape.jpg'));
  writeFileSync(join(root, 'photosthumbs/bench/.hidden.jpg'), thumb);
  writeFileSync(join(root, 'photosthumbs/bench/100%.jpg'), thumb);
  execFileSync('mkfifo', [join(root, 'photosthumbs/bench/fifo.jpg')]);

  const staticPort = await freePort();
  const nginx = await startNginx({
    bffUrl: 'http://127.0.0.1:9',
    mediaUrl: 'http://127.0.0.1:9',
    spaDir: root,
    mediaRoot: root,
    extraHttp: `\nserver {\n    listen 127.0.0.1:${staticPort};\n    sendfile on;\n    tcp_nopush on;\n    location /members/ { alias ${root}/; }\n}\n`,
  });
  const nginxPids = await nginxWorkers(Number(readFileSync(join(nginx.prefix, 'nginx.pid'), 'utf8')));
  const servers = {
    'nginx static': { url: `http://127.0.0.1:${staticPort}`, pids: nginxPids },
    'koa-send alone': await startSender('koa-send', root),
    'checks + koa-send': await startSender('koa-send-checked', root),
    'checks + answer()': await startSender('answer-checked', root),
    'the service (direct)': await startService(root, work),
  };
  for (const s of Object.values(servers)) if ('child' in s) children.push(s.child);

  const files = [
    ['photosthumbs/bench/large.jpg', `640x427 cover, ${thumb.length} bytes`],
    ['freephotos/bench/free-01.jpg', `1600x1067 free photo, ${free.length} bytes`],
  ] as const;
  console.log(
    `load average before: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  for (const [path, label] of files) {
    const results = new Map(Object.keys(servers).map((name) => [name, { perSecond: [] as number[], cpuMicros: [] as number[] }]));
    for (let run = 0; run < RUNS; run += 1) {
      // Rotate the order each run so no server always follows the same neighbour.
      const names = Object.keys(servers);
      const order = [...names.slice(run % names.length), ...names.slice(0, run % names.length)];
      for (const name of order) {
        const server = servers[name as keyof typeof servers];
        const { perSecond, cpuMicros } = rate(`${server.url}/members/${path}`, server.pids);
        results.get(name)?.perSecond.push(perSecond);
        results.get(name)?.cpuMicros.push(cpuMicros);
      }
    }
    const anchor = results.get('nginx static');
    const [rps, cpu] = [median(anchor?.perSecond ?? []), median(anchor?.cpuMicros ?? [])];
    console.log(`\n${label}: ${CONNECTIONS} connections, 5 s, median of ${RUNS}`);
    console.log(
      `  ${''.padEnd(22)} ${'req/s'.padStart(7)}  ${'vs nginx'.padStart(8)}  ${'CPU µs/req'.padStart(10)}  ${'vs nginx'.padStart(8)}   runs (req/s)`,
    );
    for (const [name, xs] of results) {
      const [r, c] = [median(xs.perSecond), median(xs.cpuMicros)];
      console.log(
        `  ${name.padEnd(22)} ${r.toFixed(0).padStart(7)}  ${(r / rps).toFixed(2).padStart(7)}x  ${c.toFixed(0).padStart(10)}  ${(c / cpu).toFixed(2).padStart(7)}x   ${xs.perSecond.map((x) => x.toFixed(0)).join(' / ')}`,
      );
    }
  }
  console.log(
    `load average after: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );

  console.log('\nHeaders of GET /members/photosthumbs/bench/large.jpg');
  const answers = await Promise.all(Object.values(servers).map((s) => probe(s.url, '/members/photosthumbs/bench/large.jpg')));
  const names = Object.keys(servers);
  for (const header of Object.keys(answers[0]?.headers ?? {})) {
    console.log(`  ${header}`);
    answers.forEach((a, i) => console.log(`    ${(names[i] ?? '').padEnd(22)} ${a.headers[header]}`));
  }

  console.log('\nSystem calls per request (strace -f -c -e trace=%file,read,pread64,write,writev), 100 sequential requests each');
  const cases = [
    ['GET cover', 'photosthumbs/bench/large.jpg', 'GET'],
    ['HEAD cover', 'photosthumbs/bench/large.jpg', 'HEAD'],
    ['GET free photo', 'freephotos/bench/free-01.jpg', 'GET'],
  ] as const;
  for (const [name, s] of Object.entries(servers)) {
    if (!('child' in s)) continue;
    console.log(`  ${name}`);
    for (const [label, path, method] of cases) {
      console.log(`    ${label.padEnd(15)} ${await systemCalls(s.pids[0] ?? 0, `${s.url}/members/${path}`, method, 100)}`);
    }
  }

  // Last: a FIFO holds one of libuv's four threads in open(2) for good in a server that opens it.
  console.log('\nPath resolution (status per server)');
  const paths = [
    ['symlink leading out of the root', 'photosthumbs/bench/escape.jpg'],
    ['dotfile', 'photosthumbs/bench/.hidden.jpg'],
    ['directory', 'photosthumbs/bench'],
    ['encoded ..', 'photosthumbs/%2e%2e/%2e%2e/secret.txt'],
    ['double-encoded .. (the literal name %2e%2e)', 'photosthumbs/%252e%252e/bench/large.jpg'],
    ['a literal % in the name', 'photosthumbs/bench/100%25.jpg'],
    ['unknown family', 'bench/large.jpg'],
    ['a FIFO', 'photosthumbs/bench/fifo.jpg'],
  ] as const;
  // nginx static is a bare alias here, with none of the front door's rules: left out.
  const resolvers = Object.entries(servers).filter(([name]) => name !== 'nginx static');
  console.log(`  ${''.padEnd(46)} ${resolvers.map(([n]) => n.padEnd(22)).join('')}`);
  for (const [label, path] of paths) {
    const statuses = [];
    for (const [, s] of resolvers) statuses.push((await probe(s.url, `/members/${path}`)).status);
    console.log(`  ${label.padEnd(46)} ${statuses.map((s) => s.padEnd(22)).join('')}`);
  }
  await nginx.stop();
} finally {
  for (const child of children) child.kill('SIGKILL');
  await rm(work, { recursive: true, force: true });
}
