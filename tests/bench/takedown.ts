/**
 * npm run bench:takedown — how long a takedown takes to reach visitors through the front door, with
 * the default intervals (MEDIA_TAKEDOWN_INTERVAL_S, nginx's 5 s thumbnail freshness, no Redis):
 * from `ops takedown` returning to the first 410 for a thumbnail variant nginx holds (HIT), and
 * from `ops restore` to the first 200. Polls every 100 ms. BENCH_RUNS rounds (default 5), each
 * on another video. The bound is 15 s; the construction gives at most ~10 s.
 */
import { createKnex } from '@media-site/db';
import { raw } from '@media-site/media-service/testing/http';
import { catalogCli } from '../src/catalog-cli';
import { startStack } from '../src/stack';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const POLL_MS = 100;
const LIMIT_MS = 30_000;
const ACCEPT = { Accept: 'image/webp,*/*' };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const stack = await startStack({ frontDoor: 'nginx' });
try {
  const knex = createKnex(stack.databaseUrl);
  const videos = ((await knex('videos').orderBy('id').limit(RUNS).select('path')) as { path: string }[]).map((v) => v.path);
  await knex.destroy();

  async function until(path: string, want: number, since: number): Promise<number> {
    while (Date.now() - since < LIMIT_MS) {
      if ((await raw(stack.url, path, ACCEPT)).status === want) return Date.now() - since;
      await sleep(POLL_MS);
    }
    throw new Error(`${path} did not answer ${want} within ${LIMIT_MS} ms`);
  }

  const gone: number[] = [];
  const back: number[] = [];
  for (const [i, video] of videos.entries()) {
    const variant = `/members/videothumbs/${video}/${video}_02.jpg?w=320`;
    await raw(stack.url, variant, ACCEPT);
    const cached = await raw(stack.url, variant, ACCEPT);
    if (cached.headers['x-cache-status'] !== 'HIT')
      throw new Error(`expected a cache HIT, got ${String(cached.headers['x-cache-status'])}`);
    // Spread the starts over the 5 s poll and freshness cycles.
    await sleep((i * 1700) % 5000);
    const down = await catalogCli(stack, 'takedown', `/video/${video}`, '--by', 'bench', '--reason', 'bench');
    if (down.code !== 0) throw new Error(down.err);
    gone.push(await until(variant, 410, Date.now()));
    const restored = await catalogCli(stack, 'restore', `/video/${video}`, '--by', 'bench', '--reason', 'bench');
    if (restored.code !== 0) throw new Error(restored.err);
    back.push(await until(variant, 200, Date.now()));
    console.log(`round ${i + 1}: takedown -> first 410 ${gone.at(-1)} ms, restore -> first 200 ${back.at(-1)} ms`);
  }
  const s = (xs: number[]) => `median ${(median(xs) / 1000).toFixed(1)} s, max ${(Math.max(...xs) / 1000).toFixed(1)} s`;
  console.log(`\nTakedown through the front door, cached thumbnail variant (${RUNS} rounds, ${POLL_MS} ms polls)`);
  console.log(`  takedown -> 410: ${s(gone)} (bound 15 s)`);
  console.log(`  restore  -> 200: ${s(back)}`);
} finally {
  await stack.stop();
}
