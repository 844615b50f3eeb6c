import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKnex } from '@media-site/db';
import { testRedisUrl } from '@media-site/db/testing';
import { runOpsCaptured } from '@media-site/ops/cli';
import { raw } from '@media-site/media-service/testing/http';
import { startStack, type Stack } from '../src/stack';

// Scheduled releases through the real front door (nginx with the repo's config, its API
// cache keyed on the catalog generation), with and without Redis. Each release: `catalog schedule`
// a video 2 s ahead, see its model page (cached by nginx) lose it, then poll that page until the
// video is back, with no purge and no other step: what brings it back is the bff's release timer
// bumping the generation. Prints the delay from publish_at to visible (median and max); the
// assertion is the promised bound, 1 s. The suite makes 6 releases per case (each costs ~2.7 s);
// SCHEDULE_RELEASES=20 gives the figure the README quotes (README, "Caches and takedowns").
const RELEASES = releaseCount(process.env.SCHEDULE_RELEASES);
const LEAD_MS = 2000;
const BOUND_MS = 1000;
const CAP_MS = 20_000;
const redisUrl = testRedisUrl();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function releaseCount(value: string | undefined): number {
  const n = Number(value ?? 6);
  if (!Number.isInteger(n) || n < 2 || n > 40 || n % 2 !== 0) throw new Error(`SCHEDULE_RELEASES: an even number 2-40, not ${value}`);
  return n;
}

interface Video {
  path: string;
  modelname: string;
}

describe.each([
  ['without Redis', undefined],
  ['with Redis', redisUrl],
] as const)('scheduled releases at the front door (%s)', (_name, redis) => {
  let stack: Stack;
  let videos: Video[];
  const prefix = `sched-${process.pid}-${Date.now()}:`;
  beforeAll(async () => {
    stack = await startStack({ frontDoor: 'nginx', redisUrl: redis, env: { CACHE_KEY_PREFIX: prefix } });
    const knex = createKnex(stack.databaseUrl);
    try {
      videos = (await knex('videos').orderBy('id').limit(RELEASES).select('path', 'modelname')) as Video[];
    } finally {
      await knex.destroy();
    }
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const cli = (...argv: string[]) =>
    runOpsCaptured(argv, {
      env: { DATABASE_URL: stack.databaseUrl, MEDIA_ROOT: stack.mediaRoot, REDIS_URL: redis, CACHE_KEY_PREFIX: prefix },
    });
  const modelPage = async (video: Video) => {
    const res = await raw(stack.url, `/api/modelname/${encodeURIComponent(video.modelname)}`);
    const body = JSON.parse(res.body.toString()) as { videos: Array<{ path: string }> };
    return { shown: body.videos.some((v) => v.path === video.path), cache: String(res.headers['x-cache-status'] ?? '') };
  };
  async function until(what: string, check: () => Promise<boolean>, pollMs: number): Promise<void> {
    const since = Date.now();
    while (Date.now() - since < CAP_MS) {
      if (await check()) return;
      await sleep(pollMs);
    }
    throw new Error(`${what}: not within ${CAP_MS} ms`);
  }

  it(`shows each of ${RELEASES} videos scheduled ${LEAD_MS} ms ahead within ${BOUND_MS} ms of its time, with no purge`, async () => {
    expect(videos.length).toBe(RELEASES);
    const delays: number[] = [];
    let hitsBefore = 0;
    for (const video of videos) {
      expect((await modelPage(video)).shown).toBe(true);
      const at = Date.now() + LEAD_MS;
      const res = await cli('catalog', 'schedule', `/video/${video.path}`, new Date(at).toISOString());
      expect(res.code, res.err).toBe(0);
      await until(`${video.path} hidden`, async () => !(await modelPage(video)).shown, 20);
      // Held by nginx under the generation of the schedule until the release moves it.
      if ((await modelPage(video)).cache === 'HIT') hitsBefore++;
      await until(`${video.path} released`, async () => (await modelPage(video)).shown, 5);
      const delay = Date.now() - at;
      expect(delay).toBeGreaterThanOrEqual(0);
      delays.push(delay);
    }
    const sorted = [...delays].sort((a, b) => a - b);
    const median = (sorted[RELEASES / 2 - 1]! + sorted[RELEASES / 2]!) / 2;
    console.log(
      `front door ${_name}: publish_at -> visible over ${RELEASES} releases: median ${median} ms, max ${sorted.at(-1)} ms` +
        ` (model page an nginx HIT before the release in ${hitsBefore}/${RELEASES})`,
    );
    expect(hitsBefore).toBeGreaterThan(RELEASES / 2);
    expect(sorted.at(-1)).toBeLessThan(BOUND_MS);
  }, 120_000);

  it('keeps a scheduled video thumbnail 404 (not held past the time) and serves it at the release', async () => {
    const video = videos[0]!;
    const thumb = `/members/videothumbs/${video.path}/${video.path}_02.jpg`;
    expect((await raw(stack.url, thumb)).status).toBe(200);
    // The media service learns of a schedule at its next list poll (5 s), and nginx keeps a thumbnail 5 s.
    const at = Date.now() + 12_000;
    expect((await cli('catalog', 'schedule', `/video/${video.path}`, new Date(at).toISOString())).code).toBe(0);
    await until('thumbnail 404', async () => (await raw(stack.url, thumb)).status === 404, 100);
    expect(Date.now()).toBeLessThan(at);
    await until('thumbnail back', async () => (await raw(stack.url, thumb)).status === 200, 20);
    const delay = Date.now() - at;
    console.log(`front door ${_name}: publish_at -> thumbnail 200 after ${delay} ms`);
    expect(delay).toBeGreaterThanOrEqual(0);
    expect(delay).toBeLessThan(BOUND_MS + 1000);
  }, 60_000);
});
