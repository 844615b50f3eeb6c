import { startStack } from '../../src/stack';
import { figure, type Figure } from '../lib/figures';
import { round, sleep, startTraffic, summarize, waitUntil, type Sample } from '../lib/http';
import { startOwnRedis } from '../lib/redis';

/**
 * Redis killed (SIGKILL) under load and restarted empty: listings and search keep answering with no
 * error and no multi-second stall, and the cache refills once Redis is back. A tiny process tier
 * sends most requests on to Redis, so the outage is felt.
 */
export async function redisOutage(options: { phaseMs: number; connections?: number }): Promise<Figure[]> {
  const redis = await startOwnRedis();
  const stack = await startStack({ redisUrl: redis.url, env: { CACHE_LOCAL_MAX_ENTRIES: '4', CACHE_KEY_PREFIX: 'rel:' } });
  try {
    const paths = (n: number) =>
      [`/api/photos/${1 + (n % 200)}`, `/api/videos-by-date/${1 + (n % 200)}`, `/api/updates/${1 + (n % 50)}`, `/api/search/t${n % 40}`][
        n % 4
      ] ?? '/';
    const t0 = performance.now();
    const traffic = startTraffic(stack.baseUrl, (n) => ({ path: paths(n) }), {
      connections: options.connections ?? 16,
      maxMs: options.phaseMs * 3 + 60_000,
    });
    await sleep(options.phaseMs);
    const keysBefore = await redis.keyCount();
    const killAt = performance.now() - t0;
    await redis.kill();
    await sleep(options.phaseMs);
    const restartAt = performance.now() - t0;
    await redis.restart();
    const refillMs = await waitUntil(async () => (await redis.keyCount()) > 0, 'the cache to refill Redis', 30_000, 100);
    await sleep(options.phaseMs);
    const samples = await traffic.stop();
    const during = (s: Sample) => s.at + s.ms >= killAt && s.at <= restartAt;
    const all = summarize(samples);
    const before = summarize(samples.filter((s) => s.at + s.ms < killAt));
    const outage = summarize(samples.filter(during));
    const bad = samples.filter((s) => s.error || s.status !== 200);
    return [
      figure(
        'Redis killed under load: requests before / during the outage',
        `${before.requests} / ${outage.requests} (${keysBefore} keys in Redis before)`,
        'reported',
        keysBefore > 0 && outage.requests > 0,
      ),
      figure('Redis outage: failed answers (errors, non-200)', `${bad.length} of ${all.requests}`, '0', bad.length === 0),
      figure(
        'Redis outage: p99 / max latency during the outage (before: p99)',
        `${outage.p99} / ${outage.max} ms (${before.p99} ms)`,
        'no multi-second stall (max < 2000 ms)',
        outage.max < 2000,
      ),
      figure('Redis restarted empty: cache refilled after', `${round(refillMs, 0)} ms`, 'refills without a restart', true),
    ];
  } finally {
    await stack.stop();
    await redis.kill();
  }
}
