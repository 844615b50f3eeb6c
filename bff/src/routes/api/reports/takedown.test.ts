import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBackends } from '@media-site/db/testing';
import { restore, takeDown, type ContentRef } from '@media-site/db/content';
import { seenEverywhere } from '../../../test/everywhere';
import { insertCatalog, type Catalog } from '../../../test/fixtures';
import { startReportKit, type ReportKit } from '../../../test/report-kit';

describe.each(testBackends())('takedown and restore in the API (%s)', (backend) => {
  let kit: ReportKit;
  let catalog: Catalog;
  beforeAll(async () => {
    kit = await startReportKit(backend, async (knex) => {
      catalog = await insertCatalog(knex);
    });
  });
  afterAll(() => kit?.close());

  const everywhere = () => seenEverywhere(kit.request, catalog);

  it('hides a video, a photo set, a free photo set and a VOD from every listing, search, model page and detail on the next request; restore brings them back', async () => {
    // Warm every cache first: the takedown must not be hidden behind a cached answer.
    const before = await everywhere();
    const video = catalog.videos[0]!.path;
    const photo = catalog.photos[0]!.path;
    const vod = catalog.vods[0]!.path;
    expect(before.videos.filter((p) => p === video)).toHaveLength(2);
    expect(before.modelVideos).toContain(video);
    expect(before.searchVideos).toContain(video);
    expect(before.updates).toEqual(expect.arrayContaining([video, photo, vod]));
    expect([before.videoDetail, before.vodDetail, before.freeFiles]).toEqual([200, 200, 200]);

    const refs: ContentRef[] = [
      { type: 'video', path: video },
      { type: 'photoset', path: photo },
      { type: 'vod', path: vod },
      { type: 'freephotoset', path: 'free-01' },
    ];
    for (const ref of refs) await takeDown(kit.db.knex, { ref, actor: 'ops', reason: 'report R-1', now: Date.now() });
    // What the CLI's Redis announcement (or the next generation poll) does in a running bff.
    await kit.cache.refreshGeneration();

    const after = await everywhere();
    expect(after.videos).not.toContain(video);
    expect(after.videos).toHaveLength(before.videos.length - 2);
    expect(after.photos).not.toContain(photo);
    expect(after.photos).toHaveLength(before.photos.length - 2);
    expect(after.vods).not.toContain(vod);
    expect(after.vods).toHaveLength(before.vods.length - 1);
    expect(after.updates).not.toEqual(expect.arrayContaining([video]));
    expect(after.updates).not.toContain(photo);
    expect(after.updates).not.toContain(vod);
    expect(after.updates).toHaveLength(before.updates.length - 3);
    expect(after.modelVideos).not.toContain(video);
    expect(after.searchVideos).not.toContain(video);
    expect(after.searchPhotos).not.toContain(photo);
    expect(after.searchVods).not.toContain(vod);
    expect([after.videoDetail, after.vodDetail, after.photoFiles, after.freeFiles]).toEqual([404, 404, 404, 404]);

    const list = await kit.request.get('/internal/media-takedowns');
    expect(list.status).toBe(200);
    expect(list.body.prefixes).toEqual(
      expect.arrayContaining([
        ...[`video/${video}/`, `videothumbs/${video}/`, `videorenditions/${video}/`, `videopreviews/${video}/`],
        ...[`photos/${photo}/`, `photosthumbs/${photo}/`, 'freephotos/free-01/'],
        ...[`vod/${vod}/`, `vodthumbs/${vod}/`, `vodrenditions/${vod}/`, `vodpreviews/${vod}/`],
      ]),
    );
    expect((await kit.request.get('/internal/media-takedowns').set('If-None-Match', list.headers.etag as string)).status).toBe(304);
    expect((await kit.request.get('/internal/media-takedowns').set('X-Forwarded-For', '1.2.3.4')).status).toBe(403);

    for (const ref of refs) await restore(kit.db.knex, { ref, actor: 'lead', reason: 'licence shown', now: Date.now() });
    await kit.cache.refreshGeneration();
    expect(await everywhere()).toEqual(before);
    expect((await kit.request.get('/internal/media-takedowns')).body.prefixes).toEqual([]);
  });

  it('serves both media-service lists uncached, with an ETag the poller can send back for a 304', async () => {
    for (const path of ['/internal/media-takedowns', '/internal/media-revocations']) {
      const first = await kit.request.get(path);
      expect(first.status).toBe(200);
      expect(first.headers['cache-control']).toBe('no-store');
      expect(first.headers.etag).toMatch(/^"[\w-]+"$/);
      const again = await kit.request.get(path).set('If-None-Match', first.headers.etag as string);
      expect(again.status).toBe(304);
      expect(again.text ?? '').toBe('');
      // What fetch() sends when If-None-Match is set by hand, as the media service's poller does.
      const polled = await kit.request.get(path).set({ 'If-None-Match': first.headers.etag as string, 'Cache-Control': 'no-cache' });
      expect(polled.status).toBe(304);
    }
  });
});
