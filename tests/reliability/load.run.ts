// 60 seconds (LOAD_SECONDS) of mixed browsing through the front door at 64 connections, in three
// rounds after a short warm-up: zero 5xx and zero connection errors, p99 reported, and the resident
// memory of the bff and the media service after the third round within 10 % of after the first.
// Run: npm run reliability:load (exit code 1 when a goal is missed).
import autocannon from 'autocannon';
import { startStack } from '../src/stack';
import { browseRequest, discoverBrowsing } from './lib/catalog';
import { assertFigures, figure, recordFigures } from './lib/figures';
import { round } from './lib/http';
import { rssMiB } from './lib/proc';

const totalSeconds = Number(process.env.LOAD_SECONDS ?? 60);
const connections = Number(process.env.LOAD_CONNECTIONS ?? 64);
const roundSeconds = Math.max(2, Math.round(totalSeconds / 3));

const stack = await startStack({ env: { SEARCH_INDEX: 'on' } });
try {
  const mix = await discoverBrowsing(stack.baseUrl);
  let n = 0;
  const run = (seconds: number) =>
    autocannon({
      url: stack.baseUrl,
      connections,
      duration: seconds,
      requests: [
        {
          setupRequest: (req) => {
            const next = browseRequest(mix, n++);
            return { ...req, path: next.path, headers: { ...req.headers, ...next.headers } };
          },
        },
      ],
    });
  await run(Math.min(5, roundSeconds));
  const rounds: autocannon.Result[] = [];
  const rss: { bff: number; media: number }[] = [];
  for (let i = 0; i < 3; i++) {
    rounds.push(await run(roundSeconds));
    rss.push({ bff: rssMiB(stack.children.bff.proc.pid), media: rssMiB(stack.children.media.proc.pid) });
    const r = rounds[i];
    console.log(`round ${i + 1}: ${r?.requests.total} requests, p99 ${r?.latency.p99} ms, 5xx ${r?.['5xx']}, errors ${r?.errors}, rss ${JSON.stringify(rss[i])}`);
  }
  const total = rounds.reduce((s, r) => s + r.requests.total, 0);
  const s5xx = rounds.reduce((s, r) => s + r['5xx'], 0);
  const errors = rounds.reduce((s, r) => s + r.errors + r.timeouts, 0);
  const s4xx = rounds.reduce((s, r) => s + r['4xx'], 0);
  const p99 = Math.max(...rounds.map((r) => r.latency.p99));
  const p50 = Math.max(...rounds.map((r) => r.latency.p50));
  const rate = round(total / (roundSeconds * 3), 0);
  const growth = (k: 'bff' | 'media') => round(((rss[2]?.[k] ?? 0) / (rss[0]?.[k] ?? 1) - 1) * 100);
  const figures = [
    figure(`requests in ${roundSeconds * 3} s at ${connections} connections (front door, mixed browsing)`, `${total} (${rate}/s)`, 'reported', true),
    figure('5xx answers', s5xx, '0', s5xx === 0),
    // Every URL of the mix exists: a 4xx would mean the mix measures error pages.
    figure('4xx answers', s4xx, '0', s4xx === 0),
    figure('connection errors and timeouts', errors, '0', errors === 0),
    figure('latency p50 / p99 (worst round)', `${p50} / ${p99} ms`, 'reported', true),
    figure('bff RSS after round 1 -> 3', `${rss[0]?.bff} -> ${rss[2]?.bff} MiB (${growth('bff')} %)`, 'within 10 %', Math.abs(growth('bff')) <= 10),
    figure('media RSS after round 1 -> 3', `${rss[0]?.media} -> ${rss[2]?.media} MiB (${growth('media')} %)`, 'within 10 %', Math.abs(growth('media')) <= 10),
  ];
  recordFigures(1, 'Load', figures);
  assertFigures(figures);
} finally {
  await stack.stop();
}
