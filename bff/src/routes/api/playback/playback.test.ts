import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBackends } from '@media-site/db/testing';
import { takeDown } from '@media-site/db/reports';
import { startReportKit, type ReportKit } from '../../../test/report-kit';
import { MANIFEST, seedPlayback, signInAs } from '../../../test/playback-kit';

describe.each(testBackends())('GET /api/playback/{type}/{folder} (%s)', (backend) => {
  let kit: ReportKit;
  let member: string;
  let buyer: string;
  let lapsed: string;
  beforeAll(async () => {
    kit = await startReportKit(backend, seedPlayback);
    [member, buyer, lapsed] = [await signInAs(kit, 'member_a'), await signInAs(kit, 'buyer_b'), await signInAs(kit, 'lapsed_c')];
  });
  afterAll(() => kit?.close());

  const play = (path: string, cookie?: string) => kit.request.get(path).set(cookie ? { Cookie: cookie } : {});

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
    const res = await play('/api/playback/video/clip-ready', member);
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
    expect((await play('/api/playback/vod/show-ready', buyer)).body).toMatchObject({
      access: 'granted',
      download: '/members/vod/show-ready/show-ready_HD.mp4',
    });
    expect((await play('/api/playback/vod/show-other', buyer)).body).toMatchObject({ access: 'purchase_required', renditions: [] });
    expect((await play('/api/playback/vod/show-ready', member)).body).toMatchObject({ access: 'purchase_required', renditions: [] });
    expect((await play('/api/playback/video/clip-ready', buyer)).body).toMatchObject({ access: 'membership_required', renditions: [] });
    expect((await play('/api/playback/video/clip-ready', lapsed)).body).toMatchObject({
      access: 'membership_required',
      trailer: expect.any(String),
    });
  });

  it('says when the files are being prepared, failed or never queued', async () => {
    expect((await play('/api/playback/video/clip-preparing', member)).body).toMatchObject({
      state: 'preparing',
      progress: 0.42,
      duration: null,
      poster: null,
      trailer: null,
      renditions: [],
    });
    expect((await play('/api/playback/video/clip-failed', member)).body).toMatchObject({ state: 'failed', progress: null, renditions: [] });
    expect((await play('/api/playback/video/clip-none', member)).body).toMatchObject({
      state: 'unavailable',
      renditions: [],
      download: expect.any(String),
    });
  });

  it('answers 404 for an unknown or taken-down item and 400 for a bad type or folder', async () => {
    expect((await play('/api/playback/video/no-such-clip')).status).toBe(404);
    expect((await play('/api/playback/vod/clip-ready')).status).toBe(404);
    const badType = await play('/api/playback/photos/clip-ready');
    expect(badType.status).toBe(400);
    expect(badType.body.error).toEqual({ code: 'bad_request', message: 'type must be video or vod' });
    expect((await play('/api/playback/video/a%20b')).status).toBe(400);
    await takeDown(kit.db.knex, { ref: { type: 'video', path: 'clip-failed' }, actor: 'test', reason: 'test', now: Date.now() });
    expect((await play('/api/playback/video/clip-failed', member)).status).toBe(404);
  });
});
