import { expect, it } from 'vitest';
import type { Knex } from 'knex';
import { verifyDownloadUrl } from '@media-site/contracts/token';
import { takeDown } from '@media-site/db/content';
import { MANIFEST, seedPlayback, startPlaybackKit } from '../../../test/playback-kit';
import { describeWithKit } from '../../../test/suite';

// The VOD's encode recorded its original's size (source.bytes); the video's is from before that.
const SOURCE_BYTES = 1_234_567_890;
async function seed(knex: Knex): Promise<void> {
  await seedPlayback(knex);
  await knex('media_jobs')
    .where({ content_type: 'vod', path: 'show-ready' })
    .update({
      manifest: JSON.stringify({
        ...MANIFEST,
        source: { ...MANIFEST.source, bytes: SOURCE_BYTES },
        renditions: [...MANIFEST.renditions].reverse(),
      }),
    });
}

const VIDEO_DOWNLOADS = [
  { label: 'Original', bytes: null, path: '/members/video/clip-ready/clip-ready_HD001.mp4' },
  { label: '1080p', bytes: 72_000_000, path: '/members/videorenditions/clip-ready/clip-ready_HD001_1080p.mp4' },
  { label: '720p', bytes: 39_000_000, path: '/members/videorenditions/clip-ready/clip-ready_HD001_720p.mp4' },
];
const VOD_DOWNLOADS = [
  { label: 'Original', bytes: SOURCE_BYTES, path: '/members/vod/show-ready/show-ready_HD.mp4' },
  { label: '1080p', bytes: 72_000_000, path: '/members/vodrenditions/show-ready/show-ready_HD_1080p.mp4' },
  { label: '720p', bytes: 39_000_000, path: '/members/vodrenditions/show-ready/show-ready_HD_720p.mp4' },
];

describeWithKit(
  'downloads in every size',
  (backend) => startPlaybackKit(backend, seed),
  (kit) => {
    const get = (path: string, cookie?: string) =>
      kit()
        .request.get(path)
        .set(cookie ? { Cookie: cookie } : {});
    const link = (path: string, cookie: string) => kit().request.get('/api/download-link').query({ path }).set('Cookie', cookie);

    it('lists the original and each rendition, largest first, with sizes from the manifest', async () => {
      expect((await get('/api/playback/video/clip-ready', kit().member)).body.downloads).toEqual(VIDEO_DOWNLOADS);
      expect((await get('/api/playback/vod/show-ready', kit().buyer)).body.downloads).toEqual(VOD_DOWNLOADS);
      // Not encoded yet: the original alone, size unknown.
      expect((await get('/api/playback/video/clip-none', kit().member)).body.downloads).toEqual([
        { label: 'Original', bytes: null, path: '/members/video/clip-none/clip-none_HD001.mp4' },
      ]);
    });

    it('lists nothing to download unless the item is granted', async () => {
      expect((await get('/api/playback/video/clip-ready')).body.downloads).toEqual([]);
      expect((await get('/api/playback/video/clip-ready', kit().lapsed)).body.downloads).toEqual([]);
      expect((await get('/api/playback/vod/show-ready', kit().member)).body.downloads).toEqual([]);
      expect((await get('/api/playback/vod/show-other', kit().buyer)).body.downloads).toEqual([]);
    });

    it('signs a download link for a rendition under the rule of its original', async () => {
      for (const [path, cookie] of [
        [VIDEO_DOWNLOADS[2]!.path, kit().member],
        [VOD_DOWNLOADS[1]!.path, kit().buyer],
      ] as const) {
        const res = await link(path, cookie);
        expect(res.status, path).toBe(200);
        const url = new URL(res.body.url, 'http://x');
        expect(url.pathname).toBe(path);
        expect(
          verifyDownloadUrl(kit().deps.settings.mediaKeys, path.slice('/members/'.length), Object.fromEntries(url.searchParams)),
        ).toMatchObject({ ok: true });
      }
      expect((await link(VIDEO_DOWNLOADS[1]!.path, kit().buyer)).status).toBe(403);
      expect((await link(VIDEO_DOWNLOADS[1]!.path, kit().lapsed)).status).toBe(403);
      expect((await link('/members/vodrenditions/show-other/show-other_HD_720p.mp4', kit().buyer)).status).toBe(403);
      expect((await link(VOD_DOWNLOADS[1]!.path, kit().member)).status).toBe(403);
    });

    it("signs only the names its downloads list gives: the item's base name and a label its encode made", async () => {
      for (const [path, cookie] of [
        // Another base name for a size the item has.
        ['/members/videorenditions/clip-ready/x_720p.mp4', kit().member],
        ['/members/videorenditions/clip-ready/clip-ready_HD_720p.mp4', kit().member],
        ['/members/vodrenditions/show-ready/Something else_1080p.mp4', kit().buyer],
        ['/members/vodrenditions/show-ready/show-ready_HD001_1080p.mp4', kit().buyer],
        // The item's base name with a size its encode did not make.
        ['/members/videorenditions/clip-ready/clip-ready_HD001_90p.mp4', kit().member],
        ['/members/videorenditions/clip-ready/clip-ready_HD001_480p.mp4', kit().member],
        ['/members/vodrenditions/show-ready/show-ready_HD_2160p.mp4', kit().buyer],
        // Not encoded yet, still encoding, failed: no rendition at all.
        ['/members/videorenditions/clip-none/clip-none_HD001_720p.mp4', kit().member],
        ['/members/videorenditions/clip-preparing/clip-preparing_HD001_720p.mp4', kit().member],
        ['/members/videorenditions/clip-failed/clip-failed_HD001_720p.mp4', kit().member],
        // No such item.
        ['/members/videorenditions/no-such-clip/no-such-clip_HD001_720p.mp4', kit().member],
      ] as const) {
        const res = await link(path, cookie);
        expect(res.status, path).toBe(404);
        expect(res.body.error.code, path).toBe('not_found');
        expect(res.body.url, path).toBeUndefined();
      }
      const odd = await link('/members/videorenditions/clip-ready/x_720p.mp4', kit().member);
      expect(odd.body.error.message).toBe('this video has no download x_720p.mp4; /api/playback/video/clip-ready lists its downloads');
      // Every name the list gives is signed.
      for (const { path } of VIDEO_DOWNLOADS) expect((await link(path, kit().member)).status, path).toBe(200);
      for (const { path } of VOD_DOWNLOADS) expect((await link(path, kit().buyer)).status, path).toBe(200);
    });

    it('answers 400 for a playback file or a path trick, never signing it', async () => {
      for (const path of [
        '/members/videorenditions/clip-ready/720p.mp4',
        '/members/videorenditions/clip-ready/clip_720.mp4',
        '/members/videorenditions/clip-ready/x/clip_720p.mp4',
        '/members/videorenditions/clip-ready/..%2f..%2fvideo_720p.mp4',
        '/members/videorenditions/../video/clip-ready/a_720p.mp4',
        '/members/videopreviews/clip-ready/a_720p.mp4',
      ]) {
        const res = await link(path, kit().member);
        expect(res.status, path).toBe(400);
        expect(res.body.error.code).toBe('bad_request');
      }
    });

    it('refuses a rendition link for a taken-down item, as for the original', async () => {
      await takeDown(kit().db.knex, { ref: { type: 'video', path: 'clip-ready' }, actor: 'test', reason: 'test', now: Date.now() });
      expect((await link(VIDEO_DOWNLOADS[1]!.path, kit().member)).status).toBe(404);
      expect((await link(VIDEO_DOWNLOADS[0]!.path, kit().member)).status).toBe(404);
    });

    it('lists each bought VOD with its downloads on /api/account', async () => {
      const res = await get('/api/account', kit().buyer);
      expect(res.status).toBe(200);
      expect(res.body.vodItems).toEqual([
        { path: 'show-ready', updatename: 'Title show-ready', download: VOD_DOWNLOADS[0]!.path, downloads: VOD_DOWNLOADS },
      ]);
    });
  },
);
