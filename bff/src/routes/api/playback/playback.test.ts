import { expect, it } from 'vitest';
import { takeDown } from '@media-site/db/content';
import { MANIFEST, startPlaybackKit } from '../../../test/playback-kit';
import { describeWithKit } from '../../../test/suite';

describeWithKit(
  'GET /api/playback/{type}/{folder}',
  (backend) => startPlaybackKit(backend),
  (kit) => {
    const play = (path: string, cookie?: string) =>
      kit()
        .request.get(path)
        .set(cookie ? { Cookie: cookie } : {});

    it('shows a visitor the previews and what stands in the way, never the renditions', async () => {
      const res = await play('/api/playback/video/clip-ready');
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toEqual({
        type: 'video',
        path: 'clip-ready',
        updatename: 'Title clip-ready',
        modelname: 'Model A1',
        access: 'sign_in',
        state: 'ready',
        progress: null,
        duration: 120.5,
        poster: '/members/videopreviews/clip-ready/poster.jpg',
        thumbnails: '/members/videopreviews/clip-ready/thumbs.vtt',
        trailer: '/members/videopreviews/clip-ready/trailer.mp4',
        renditions: [],
        download: null,
        downloads: [],
        position: null,
      });
    });

    it('gives a member with a membership the renditions, largest first, the download and the position', async () => {
      const res = await play('/api/playback/video/clip-ready', kit().member);
      expect(res.body).toMatchObject({
        access: 'granted',
        state: 'ready',
        renditions: [
          {
            label: '1080p',
            url: '/members/videorenditions/clip-ready/1080p.mp4',
            width: 1920,
            height: 1080,
            bitrate: 4_800_000,
            type: MANIFEST.renditions[0]!.mime,
          },
          {
            label: '720p',
            url: '/members/videorenditions/clip-ready/720p.mp4',
            width: 1280,
            height: 720,
            bitrate: 2_600_000,
            type: MANIFEST.renditions[1]!.mime,
          },
        ],
        download: '/members/video/clip-ready/clip-ready_HD001.mp4',
        position: { seconds: 0, duration: 120.5, completed: false, updatedAt: null },
      });
    });

    it('applies the original rule: a VOD needs its purchase, a video the membership', async () => {
      expect((await play('/api/playback/vod/show-ready', kit().buyer)).body).toMatchObject({
        access: 'granted',
        download: '/members/vod/show-ready/show-ready_HD.mp4',
      });
      expect((await play('/api/playback/vod/show-other', kit().buyer)).body).toMatchObject({ access: 'purchase_required', renditions: [] });
      expect((await play('/api/playback/vod/show-ready', kit().member)).body).toMatchObject({
        access: 'purchase_required',
        renditions: [],
      });
      expect((await play('/api/playback/video/clip-ready', kit().buyer)).body).toMatchObject({
        access: 'membership_required',
        renditions: [],
      });
      expect((await play('/api/playback/video/clip-ready', kit().lapsed)).body).toMatchObject({
        access: 'membership_required',
        trailer: expect.any(String),
      });
    });

    it('says when the files are being prepared, failed or never queued, and offers an MP4 original to play meanwhile', async () => {
      const original = (path: string) => [
        { label: 'Original', url: `/members/video/${path}/${path}_HD001.mp4`, width: 0, height: 0, bitrate: 0, type: 'video/mp4' },
      ];
      expect((await play('/api/playback/video/clip-preparing', kit().member)).body).toMatchObject({
        state: 'preparing',
        progress: 0.42,
        duration: null,
        poster: null,
        trailer: null,
        renditions: original('clip-preparing'),
      });
      expect((await play('/api/playback/video/clip-failed', kit().member)).body).toMatchObject({
        state: 'failed',
        progress: null,
        renditions: original('clip-failed'),
      });
      expect((await play('/api/playback/video/clip-none', kit().member)).body).toMatchObject({
        state: 'unavailable',
        renditions: original('clip-none'),
        download: expect.any(String),
      });
      // Not to a visitor, nor to a member without the item.
      expect((await play('/api/playback/video/clip-preparing')).body).toMatchObject({ access: 'sign_in', renditions: [] });
      expect((await play('/api/playback/video/clip-preparing', kit().lapsed)).body).toMatchObject({ renditions: [] });
      // An MPEG-PS original (not MP4) is for the download only.
      await kit().db.knex('videos').insert({
        path: 'clip-mpeg',
        updatename: 'Title mpeg',
        modelname: 'Model A1',
        datetoupload: '2025-05-01',
        search_text: 'title mpeg',
        prename: 'clip-mpeg_SD',
      });
      expect((await play('/api/playback/video/clip-mpeg', kit().member)).body).toMatchObject({
        state: 'unavailable',
        renditions: [],
        download: '/members/video/clip-mpeg/clip-mpeg_SD001.mpg',
      });
    });

    it('answers 404 for an unknown or taken-down item and 400 for a bad type or folder', async () => {
      expect((await play('/api/playback/video/no-such-clip')).status).toBe(404);
      expect((await play('/api/playback/vod/clip-ready')).status).toBe(404);
      const badType = await play('/api/playback/photos/clip-ready');
      expect(badType.status).toBe(400);
      expect(badType.body.error).toEqual({ code: 'bad_request', message: 'type must be video or vod' });
      expect((await play('/api/playback/video/a%20b')).status).toBe(400);
      await takeDown(kit().db.knex, { ref: { type: 'video', path: 'clip-failed' }, actor: 'test', reason: 'test', now: Date.now() });
      expect((await play('/api/playback/video/clip-failed', kit().member)).status).toBe(404);
    });
  },
);
