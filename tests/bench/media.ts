/**
 * npm run bench:media — the media service beside its anchors, in one run, printing ratios:
 * a 1 GiB download (service streaming / nginx static / nginx X-Accel-Redirect), TTFB of a 1 MiB range
 * at the start and end of a 4 GiB sparse file, a cached variant vs nginx static, a cold variant vs a
 * bare sharp resize, and the service's peak RSS while streaming. Loopback and a shared machine:
 * read the ratios, and take the median of several runs. BENCH_SKIP_DOWNLOADS=1 leaves out the 1 GiB
 * and 4 GiB parts (the variant figures alone).
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { closeSync, copyFileSync, mkdirSync, openSync, readFileSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import sharp from 'sharp';
import { parseKeyRing, signDownloadUrl } from '@media-site/contracts/token';
import { freePort, startNginx } from '../src/nginx';

const repo = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
const KEYS = 'bench:benchmark-only-secret-key';
const keys = parseKeyRing(KEYS);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SKIP_DOWNLOADS = process.env.BENCH_SKIP_DOWNLOADS === '1';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const ratio = (a: number, b: number) => (a / b).toFixed(2);

function curl(url: string, extra: string[] = []): { seconds: number; bytes: number; ttfb: number } {
  const out = spawnSync(
    'curl',
    ['-sS', '-f', '-o', '/dev/null', '-w', '%{time_total} %{size_download} %{time_starttransfer}', ...extra, url],
    {
      encoding: 'utf8',
    },
  );
  if (out.status !== 0) throw new Error(`curl ${url}: ${out.stderr}`);
  const [seconds = NaN, bytes = NaN, ttfb = NaN] = out.stdout.split(' ').map(Number);
  return { seconds, bytes, ttfb };
}

function fillFile(path: string, size: number): void {
  const block = Buffer.alloc(MiB);
  for (let i = 0; i < MiB; i += 4) block.writeUInt32LE((Math.random() * 2 ** 32) >>> 0, i);
  const fd = openSync(path, 'w');
  for (let written = 0; written < size; written += MiB) writeSync(fd, block);
  closeSync(fd);
}

function peakRss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
}

function currentRss(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
}

async function startService(env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', join(repo, 'media-service/src/main.ts')], {
    env: { ...process.env, MEDIA_PORT: String(port), MEDIA_TOKEN_KEYS: KEYS, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i += 1) {
    if (
      await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { url, child };
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('media service did not start');
}

async function rate(url: string, headers: Record<string, string> = {}): Promise<number> {
  const result = await autocannon({ url, connections: 32, duration: 5, headers });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`autocannon ${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

const work = await mkdtemp(join(tmpdir(), 'bench-media-'));
const root = join(work, 'media');
const staticDir = join(work, 'static');
const children: ChildProcess[] = [];
try {
  for (const dir of ['video/bench', 'vod/bench', 'photosthumbs/bench', 'photosthumbs/cold'])
    mkdirSync(join(root, dir), { recursive: true });
  mkdirSync(staticDir, { recursive: true });
  console.log(SKIP_DOWNLOADS ? 'preparing images...' : 'preparing files (1 GiB, 4 GiB sparse, images)...');
  if (!SKIP_DOWNLOADS) {
    fillFile(join(root, 'video/bench/big001.mp4'), GiB);
    const huge = join(root, 'vod/bench/huge.mp4');
    writeFileSync(huge, '');
    truncateSync(huge, 4 * GiB);
  }
  const source = await sharp({
    create: { width: 2400, height: 1600, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
  })
    .jpeg({ quality: 85 })
    .toBuffer();
  writeFileSync(join(root, 'photosthumbs/bench/large.jpg'), source);
  for (let i = 0; i < 9; i += 1) writeFileSync(join(root, `photosthumbs/cold/${i}.jpg`), source);

  const direct = await startService({ MEDIA_ROOT: root, VARIANT_CACHE_DIR: join(work, 'variants-direct') });
  const offload = await startService({ MEDIA_ROOT: root, VARIANT_CACHE_DIR: join(work, 'variants-offload'), MEDIA_OFFLOAD: 'nginx' });
  children.push(direct.child, offload.child);
  const staticPort = await freePort();
  const nginx = await startNginx({
    bffUrl: 'http://127.0.0.1:9',
    mediaUrl: offload.url,
    spaDir: staticDir,
    mediaRoot: root,
    extraHttp: `\nserver {\n    listen 127.0.0.1:${staticPort};\n    root ${root};\n    sendfile on;\n    tcp_nopush on;\n    location /static/ { alias ${staticDir}/; }\n}\n`,
  });
  const nginxStatic = `http://127.0.0.1:${staticPort}`;
  const exp = Math.floor(Date.now() / 1000) + 3600;
  const bigLink = signDownloadUrl(keys, { path: 'video/bench/big001.mp4', memberId: 1, expiresAt: exp });
  const hugeLink = signDownloadUrl(keys, { path: 'vod/bench/huge.mp4', memberId: 1, expiresAt: exp });

  if (!SKIP_DOWNLOADS) {
    // 1 GiB downloads.
    curl(nginxStatic + '/video/bench/big001.mp4'); // warm the page cache
    const rssBefore = currentRss(direct.child.pid ?? 0);
    const speeds = { direct: [] as number[], static: [] as number[], offload: [] as number[] };
    for (let i = 0; i < RUNS; i += 1) {
      speeds.static.push(GiB / curl(nginxStatic + '/video/bench/big001.mp4').seconds);
      speeds.direct.push(GiB / curl(direct.url + bigLink).seconds);
      speeds.offload.push(GiB / curl(nginx.url + bigLink).seconds);
    }
    const rssPeak = peakRss(direct.child.pid ?? 0);
    const mbps = (xs: number[]) => `${(median(xs) / MiB).toFixed(0)} MiB/s`;
    console.log(`\n1 GiB download (median of ${RUNS})`);
    console.log(`  nginx static      ${mbps(speeds.static)}`);
    console.log(`  service direct    ${mbps(speeds.direct)}   ratio ${ratio(median(speeds.direct), median(speeds.static))} (goal >= 0.5)`);
    console.log(
      `  nginx offload     ${mbps(speeds.offload)}   ratio ${ratio(median(speeds.offload), median(speeds.static))} (goal >= 0.9)`,
    );
    console.log(`  service RSS before ${rssBefore.toFixed(0)} MiB, peak while streaming ${rssPeak.toFixed(0)} MiB (goal: flat)`);

    // TTFB of 1 MiB at the start and the end of 4 GiB.
    const start: number[] = [];
    const end: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      start.push(curl(direct.url + hugeLink, ['-r', `0-${MiB - 1}`]).ttfb);
      end.push(curl(direct.url + hugeLink, ['-r', `${4 * GiB - MiB}-${4 * GiB - 1}`]).ttfb);
    }
    console.log(`\nTTFB of a 1 MiB range in 4 GiB (median of 20)`);
    console.log(
      `  start ${(median(start) * 1000).toFixed(2)} ms, end ${(median(end) * 1000).toFixed(2)} ms   ratio end/start ${ratio(median(end), median(start))} (goal <= 1.2)`,
    );
  }

  // Cached variant vs nginx serving the same bytes as a static file.
  const variantUrl = `${direct.url}/members/photosthumbs/bench/large.jpg?w=320`;
  const variantBytes = Buffer.from(await (await fetch(variantUrl, { headers: { Accept: 'image/webp' } })).arrayBuffer());
  writeFileSync(join(staticDir, 'variant.webp'), variantBytes);
  const cachedRate = await rate(variantUrl, { Accept: 'image/webp' });
  const staticRate = await rate(`${nginxStatic}/static/variant.webp`);
  console.log(`\nCached variant (${variantBytes.length} bytes, 32 connections, 5 s)`);
  // What a visitor gets: the front door (the repo's nginx config) answers a public thumbnail variant
  // from its proxy cache once the service has made it; the service sees the first request only.
  const frontDoorVariant = `${nginx.url}/members/photosthumbs/bench/large.jpg?w=320`;
  const first = await fetch(frontDoorVariant, { headers: { Accept: 'image/webp' } });
  const firstBytes = Buffer.from(await first.arrayBuffer());
  if (!firstBytes.equals(variantBytes)) throw new Error('the front door answered other bytes than the service');
  const frontRate = await rate(frontDoorVariant, { Accept: 'image/webp' });
  const cacheStatus = (await fetch(frontDoorVariant, { headers: { Accept: 'image/webp' } })).headers.get('x-cache-status');
  console.log(`  nginx static ${staticRate.toFixed(0)} req/s`);
  console.log(`  service direct (Koa)          ${cachedRate.toFixed(0)} req/s   ratio ${ratio(cachedRate, staticRate)}`);
  console.log(
    `  front door (nginx proxy cache, ${cacheStatus ?? 'no X-Cache-Status'}) ${frontRate.toFixed(0)} req/s   ratio ${ratio(frontRate, staticRate)} (goal >= 0.7)`,
  );

  // Cold variant (through the service: stat, key, sharp, disk write, answer) vs bare sharp.
  const cold: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < 9; i += 1) {
    const t0 = performance.now();
    const res = await fetch(`${direct.url}/members/photosthumbs/cold/${i}.jpg?w=640`);
    await res.arrayBuffer();
    cold.push(performance.now() - t0);
    const t1 = performance.now();
    copyFileSync(join(root, `photosthumbs/cold/${i}.jpg`), join(work, 'bare.jpg'));
    await sharp(join(work, 'bare.jpg'), { failOn: 'warning', limitInputPixels: 40_000_000, sequentialRead: true })
      .rotate()
      .resize({ width: 640, withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 80 })
      .toBuffer();
    bare.push(performance.now() - t1 - 0);
  }
  console.log(`\nCold 640 px JPEG variant of a 2400x1600 JPEG (median of 9)`);
  console.log(
    `  bare sharp ${median(bare).toFixed(1)} ms, service ${median(cold).toFixed(1)} ms   ratio ${ratio(median(cold), median(bare))} (goal <= 1.3)`,
  );

  await nginx.stop();
} finally {
  for (const child of children) child.kill('SIGTERM');
  await rm(work, { recursive: true, force: true });
}
