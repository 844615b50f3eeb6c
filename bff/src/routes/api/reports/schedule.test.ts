import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBackends } from '@media-site/db/testing';
import { schedule, type ContentRef } from '@media-site/db/content';
import { seenEverywhere, type Seen } from '../../../test/everywhere';
import { insertCatalog, type Catalog } from '../../../test/fixtures';
import { startReportKit, type ReportKit } from '../../../test/report-kit';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Scheduled releases. The kit polls the generation once an hour and has no Redis: after
// the schedule itself (whose announcement refreshGeneration stands in for), only the bff's release
// timer can bring an item out at its time.
describe.each(testBackends())('scheduled releases in the API (%s)', (backend) => {
  let kit: ReportKit;
  let catalog: Catalog;
  let refs: ContentRef[];
  beforeAll(async () => {
    kit = await startReportKit(backend, async (knex) => {
      catalog = await insertCatalog(knex);
    });
    refs = [
      { type: 'video', path: catalog.videos[0]!.path },
      { type: 'photoset', path: catalog.photos[0]!.path },
      { type: 'vod', path: catalog.vods[0]!.path },
      { type: 'freephotoset', path: 'free-01' },
    ];
  });
  afterAll(() => kit?.close());

  const everywhere = () => seenEverywhere(kit.request, catalog);
  /** What is shown, whatever the order (a release moves an item up the date-sorted lists). */
  const unordered = (seen: Seen) =>
    JSON.stringify(Object.entries(seen).map(([key, value]) => [key, Array.isArray(value) ? [...(value as string[])].sort() : value]));
  async function scheduleAll(at: number | null): Promise<void> {
    for (const ref of refs) await schedule(kit.db.knex, ref, at);
    await kit.cache.refreshGeneration();
  }
  function expectHidden(seen: Seen, before: Seen): void {
    const [video, photo, vod] = refs.map((r) => r.path);
    expect(seen.videos).not.toContain(video);
    expect(seen.videos).toHaveLength(before.videos.length - 2);
    expect(seen.photos).not.toContain(photo);
    expect(seen.vods).not.toContain(vod);
    expect(seen.updates).not.toContain(video);
    expect(seen.updates).not.toContain(photo);
    expect(seen.updates).not.toContain(vod);
    expect(seen.updates).toHaveLength(before.updates.length - 3);
    expect(seen.modelVideos).not.toContain(video);
    expect(seen.searchVideos).not.toContain(video);
    expect(seen.searchPhotos).not.toContain(photo);
    expect(seen.searchVods).not.toContain(vod);
    expect([seen.videoDetail, seen.vodDetail, seen.photoFiles, seen.freeFiles]).toEqual([404, 404, 404, 404]);
  }

  it('hides items scheduled 2 s ahead everywhere, lists their media folders with the time, then shows them at that time with no manual step', async () => {
    // Warm every cache first: the release must not wait behind a cached answer.
    const before = await everywhere();
    const at = Date.now() + 2000;
    await scheduleAll(at);
    expectHidden(await everywhere(), before);

    const list = (await kit.request.get('/internal/media-takedowns')).body as { prefixes: string[]; scheduled: Record<string, number> };
    expect(list.prefixes).toEqual([]);
    const video = refs[0]!.path;
    for (const prefix of [`video/${video}/`, `videopreviews/${video}/`, `videothumbs/${video}/`, 'freephotos/free-01/'])
      expect(list.scheduled[prefix]).toBe(at);

    // Polled the way a visitor would; it must be back within a second of its time.
    let seen = await everywhere();
    while (unordered(seen) !== unordered(before) && Date.now() < at + 1000) {
      await sleep(50);
      seen = await everywhere();
    }
    expect(Date.now()).toBeGreaterThanOrEqual(at);
    expect(unordered(seen)).toEqual(unordered(before));
    // Released today, dated today: first in the date-sorted feed, not under their old upload dates.
    expect(new Set(seen.updates.slice(0, 3))).toEqual(new Set(refs.slice(0, 3).map((r) => r.path)));
    const detail = await kit.request.get(`/api/videos/prename/${refs[0]!.path}`);
    expect(detail.body.datetoupload).toBe(new Date(at).toISOString().slice(0, 10));
    expect((await kit.request.get('/internal/media-takedowns')).body.scheduled).toEqual({});
  });

  it('unschedule publishes at once; a time already past is published', async () => {
    const before = await everywhere();
    await scheduleAll(Date.now() + 3_600_000);
    expectHidden(await everywhere(), before);
    await scheduleAll(null);
    expect(await everywhere()).toEqual(before);

    await scheduleAll(Date.now() + 3_600_000);
    expectHidden(await everywhere(), before);
    await scheduleAll(Date.now() - 1000);
    expect(await everywhere()).toEqual(before);
  });

  it('bumps the generation once per release however many instances race for it, and again for the next one', async () => {
    const start = kit.cache.currentGeneration!;
    const at = Date.now() + 300;
    await schedule(kit.db.knex, refs[0]!, at);
    await schedule(kit.db.knex, refs[1]!, at + 400);
    await kit.cache.refreshGeneration();
    expect(kit.cache.currentGeneration).toBe(start + 2);
    // Three "instances" race for the first release: one bump.
    await sleep(at - Date.now() + 10);
    await Promise.all([kit.cache.releaseDue(Date.now()), kit.cache.releaseDue(Date.now()), kit.cache.releaseDue(Date.now())]);
    await kit.cache.refreshGeneration();
    expect(kit.cache.currentGeneration).toBe(start + 3);
    // The timer brings the second one out without help.
    await sleep(at + 400 - Date.now() + 300);
    expect(kit.cache.currentGeneration).toBe(start + 4);
    expect(await kit.cache.releaseDue(Date.now())).toBeUndefined();
  });
});
