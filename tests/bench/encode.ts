// Encode benchmark: `npm run bench:encode` (env: BENCH_SOURCE_SECONDS (60), BENCH_LOAD_SECONDS (20),
// BENCH_CONNECTIONS (16), BENCH_SKIP_LOAD, BENCH_NICE_LEVELS ("10,0"), BENCH_THREADS (0 = ffmpeg decides)).
// 1. Throughput (nice 0): seconds of video per second of wall time for a 1080p source of BENCH_SOURCE_SECONDS
//    (generated once with ffmpeg's test sources, kept in the temp folder, never committed): the whole
//    job the worker runs (1080p/720p/480p ladder + sprite + poster + trailer, `ops encode` in its
//    own process) beside its anchor, one plain ffmpeg 1080p H.264 encode with the same preset.
// 2. The site keeps answering: the demo site through nginx under autocannon over a mix of catalog
//    URLs, idle and then while the worker encodes, at each nice level; p50 / p99 / max. Goal p99 < 50 ms.
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createKnex, migrateLatest, searchText } from '@media-site/db';
import { enqueue, sourceSig } from '@media-site/db/encode';
import { h264Output, makeTestPattern } from '@media-site/encoder/testing-clips';
import { repoRoot } from '../../scripts/lib/site';
import { startStack } from '../src/stack';
import { BENCH_1080P } from './big-mp4';

const run = promisify(execFile);

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; max: number };
  non2xx: number;
  errors: number;
}
type Autocannon = (opts: {
  url: string;
  connections: number;
  duration: number;
  requests?: { path: string }[];
}) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const SOURCE_SECONDS = Number(process.env.BENCH_SOURCE_SECONDS ?? 60);
const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 20);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const NICE_LEVELS = (process.env.BENCH_NICE_LEVELS ?? '10,0').split(',').map(Number);
const THREADS = process.env.BENCH_THREADS ?? '0';
const PRESET = 'veryfast';

/** A 1080p25 H.264 source with sound, like a camera original: made once, reused by later runs. */
async function source(): Promise<string> {
  const dir = join(tmpdir(), 'bench-encode');
  const file = join(dir, `source-1080p-${SOURCE_SECONDS}s.mp4`);
  if (existsSync(file)) return file;
  await mkdir(dir, { recursive: true });
  console.log(`making the ${SOURCE_SECONDS} s 1080p source (once) ...`);
  const tmp = `${file}.tmp.mp4`;
  await makeTestPattern(tmp, { ...BENCH_1080P, seconds: SOURCE_SECONDS, output: h264Output('-b:v', '12M', '-b:a', '192k') });
  await run('mv', [tmp, file]);
  return file;
}

/** The anchor: one 1080p encode with the worker's preset, no ladder, no previews. */
async function plainEncode(src: string, out: string): Promise<number> {
  const started = performance.now();
  await run(
    'ffmpeg',
    [
      '-v',
      'error',
      '-y',
      '-i',
      src,
      '-c:v',
      'libx264',
      '-preset',
      PRESET,
      '-crf',
      '23',
      '-threads',
      THREADS,
      '-c:a',
      'aac',
      '-b:a',
      '128k',
      '-movflags',
      '+faststart',
      out,
    ],
    { timeout: 60 * 60_000 },
  );
  return (performance.now() - started) / 1000;
}

interface EncodeSetup {
  databaseUrl: string;
  mediaRoot: string;
  queue(): Promise<void>;
}

async function encodeSetup(dir: string, src: string): Promise<EncodeSetup> {
  const databaseUrl = `sqlite:${join(dir, 'bench.sqlite')}`;
  const mediaRoot = join(dir, 'media');
  const knex = createKnex(databaseUrl);
  await migrateLatest(knex);
  await knex('videos').insert({
    path: 'bench-1080p',
    updatename: 'Bench',
    modelname: 'Bench',
    datetoupload: '2025-01-01',
    search_text: searchText('Bench', 'Bench'),
    prename: 'bench_001.mp4',
  });
  const original = join(mediaRoot, 'video/bench-1080p/bench_001.mp4');
  await mkdir(join(mediaRoot, 'video/bench-1080p'), { recursive: true });
  await copyFile(src, original);
  const sig = (await sourceSig(original)) ?? '';
  await knex.destroy();
  return {
    databaseUrl,
    mediaRoot,
    async queue() {
      const k = createKnex(databaseUrl);
      await enqueue(k, { type: 'video', path: 'bench-1080p', sourceSig: sig, again: true }, Date.now());
      await k.destroy();
    },
  };
}

/** `ops encode` in its own process, as an operator runs it; resolves with the job's own wall time. */
function workerEncode(setup: EncodeSetup, nice: number): { started: Promise<void>; done: Promise<number> } {
  const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'ops/src/cli/ops.ts'), 'encode'], {
    env: {
      ...process.env,
      DATABASE_URL: setup.databaseUrl,
      MEDIA_ROOT: setup.mediaRoot,
      ENCODE_NICE: String(nice),
      ENCODE_THREADS: THREADS,
      ENCODE_PRESET: PRESET,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // Running once the worker has claimed the job; then a moment for ffmpeg to reach full speed.
  const started = (async () => {
    const knex = createKnex(setup.databaseUrl);
    try {
      while (!(await knex('media_jobs').where({ status: 'running' }).first('id'))) await new Promise((r) => setTimeout(r, 100));
    } finally {
      await knex.destroy();
    }
    await new Promise((r) => setTimeout(r, 1000));
  })();
  const done = new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => {
      const seconds = /^encoded video\/bench-1080p in ([\d.]+) s/m.exec(output)?.[1];
      if (code !== 0 || !seconds) reject(new Error(`encode failed (${code}):\n${output}`));
      else resolve(Number(seconds));
    });
  });
  return { started, done };
}

const CATALOG_PATHS = [
  '/api/updates/1',
  '/api/updates/2',
  '/api/updates/3',
  '/api/videos/1',
  '/api/videos/2',
  '/api/videos-by-date/1',
  '/api/photos/1',
  '/api/photos/3',
  '/api/photos-by-date/2',
  '/api/vod/1',
  '/api/vod/2',
  '/api/models/M',
  '/api/search/quiet',
];

function row(label: string, r: AutocannonResult): string {
  return `| ${label} | ${Math.round(r.requests.average)} | ${r.latency.p50} | **${r.latency.p99}** | ${r.latency.max} | ${r.non2xx + r.errors} |`;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-encode-run-'));
  try {
    const src = await source();
    const setup = await encodeSetup(dir, src);
    console.log(
      `\n## Encoding throughput (${SOURCE_SECONDS} s of 1080p25, preset ${PRESET}, threads ${THREADS === '0' ? 'auto' : THREADS}, nice 0; load average before: ${loadavg()[0]?.toFixed(1)})\n`,
    );
    const anchor = await plainEncode(src, join(dir, 'plain.mp4'));
    await setup.queue();
    // Same priority as the anchor, so the two figures compare like with like.
    const job = await workerEncode(setup, 0).done;
    console.log('| what | wall s | s of video per s |');
    console.log('|---|---|---|');
    console.log(`| anchor: one 1080p encode (ffmpeg alone) | ${anchor.toFixed(1)} | ${(SOURCE_SECONDS / anchor).toFixed(2)} |`);
    console.log(
      `| worker job: 1080p + 720p + 480p ladder, sprite, poster, trailer, checks | ${job.toFixed(1)} | **${(SOURCE_SECONDS / job).toFixed(2)}** |`,
    );
    console.log(`ratio job / anchor throughput: ${(anchor / job).toFixed(2)}`);

    if (process.env.BENCH_SKIP_LOAD) return;
    const stack = await startStack({ frontDoor: 'nginx' });
    try {
      const url = stack.url;
      const videos = (await (await fetch(`${url}/api/videos/1`)).json()) as { path: string }[];
      // The listings (cached), a photo set's file list and a player page's playback answer (database each time).
      const requests = [...CATALOG_PATHS, `/api/videos/prename/${videos[0]?.path}`, `/api/playback/video/${videos[0]?.path}`].map(
        (path) => ({ path }),
      );
      await autocannon({ url, connections: CONNECTIONS, duration: 2, requests });
      console.log(
        `\n## The site while encoding (autocannon, ${CONNECTIONS} connections, ${LOAD_SECONDS} s, ${requests.length} catalog URLs through nginx; ms; load average ${loadavg()[0]?.toFixed(1)})\n`,
      );
      console.log('| load | req/s | p50 | p99 | max | errors |');
      console.log('|---|---|---|---|---|---|');
      console.log(row('idle (no encode)', await autocannon({ url, connections: CONNECTIONS, duration: LOAD_SECONDS, requests })));
      for (const nice of NICE_LEVELS) {
        await setup.queue();
        const encode = workerEncode(setup, nice);
        await encode.started;
        const during = await autocannon({ url, connections: CONNECTIONS, duration: LOAD_SECONDS, requests });
        const seconds = await encode.done;
        console.log(
          `${row(`encoding, ENCODE_NICE=${nice}`, during)} (job ${seconds.toFixed(1)} s: ${(SOURCE_SECONDS / seconds).toFixed(2)} s/s under load)`,
        );
      }
      console.log('\ngoal: catalog p99 < 50 ms while encoding');
    } finally {
      await stack.stop();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
