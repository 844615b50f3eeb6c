/**
 * npm run bench:public-original (tests/bench/public-original.ts) — a full-size public file (the `thumbnail` URL of the API
 * answers) against a static file of the same bytes, through the same nginx (the repo's
 * config, real bff and media service). wrk -t2 -c64 -d10s (BENCH_SECONDS), BENCH_ROUNDS 2
 * alternating rounds; requests over 2 s (BENCH_TIMEOUT) show as wrk timeouts.
 * BENCH_BEFORE=1 reloads nginx without the location's `X-Front-Cache: store` (the media service then
 * answers X-Accel-Redirect on every request, as it did before nginx cached these files) to measure the old path.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { raw } from '@media-site/media-service/testing/http';
import { repoRoot } from '../../scripts/lib/site';
import { startStack } from '../src/stack';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const BEFORE = process.env.BENCH_BEFORE === '1';

function wrk(url: string): string {
  const out = spawnSync('wrk', ['-t2', '-c64', `-d${SECONDS}s`, '--timeout', process.env.BENCH_TIMEOUT ?? '2s', '--latency', url], {
    encoding: 'utf8',
  });
  const perSecond = /Requests\/sec:\s+([\d.]+)/.exec(out.stdout)?.[1];
  const timeouts = /timeout (\d+)/.exec(out.stdout)?.[1] ?? '0';
  const p99 = /99%\s+(\S+)/.exec(out.stdout)?.[1];
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(out.stdout)?.[1] ?? '0';
  return `${perSecond} req/s, p99 ${p99}, over ${process.env.BENCH_TIMEOUT ?? '2s'} ${timeouts}, non-2xx ${non2xx}`;
}

const stack = await startStack({ frontDoor: 'nginx' });
const staticName = `__bench-original-${process.pid}.jpg`;
const staticFile = join(repoRoot, 'frontend/dist', staticName);
try {
  const page = JSON.parse((await raw(stack.url, '/api/photos/1')).body.toString()) as Array<{ thumbnail: string }>;
  const path = new URL(page[0]!.thumbnail, stack.url).pathname;
  if (BEFORE) {
    const prefix = join(stack.dataDir, 'nginx');
    const conf = join(prefix, 'front-door.conf');
    writeFileSync(conf, readFileSync(conf, 'utf8').replace('proxy_set_header X-Front-Cache store;', ''));
    process.kill(Number(readFileSync(join(prefix, 'nginx.pid'), 'utf8').trim()), 'SIGHUP');
    await new Promise((r) => setTimeout(r, 1500));
  }
  await raw(stack.url, path);
  const original = await raw(stack.url, path);
  writeFileSync(staticFile, original.body);
  console.log(
    `${BEFORE ? 'BEFORE' : 'AFTER'}: ${path} ${original.body.length} bytes, X-Cache-Status ${String(original.headers['x-cache-status'])}`,
  );
  for (let round = 1; round <= ROUNDS; round += 1) {
    console.log(`round ${round}: original ${wrk(`${stack.url}${path}`)}`);
    console.log(`round ${round}: static   ${wrk(`${stack.url}/${staticName}`)}`);
  }
} finally {
  rmSync(staticFile, { force: true });
  await stack.stop();
}
