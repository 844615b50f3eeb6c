import { expect, it } from 'vitest';
import { signDownloadUrl } from '@media-site/contracts/token';
import { RANGE_DATA, jpeg, keys, raw } from '../test/helpers';
import { RENDITIONS, cookie, describeDeliveries, member, now } from '../test/deliveries';

const RENDITION = '/members/videorenditions/clip-1/720p.mp4';
const VOD_RENDITION = (path: string) => `/members/vodrenditions/${path}/480p.mp4`;
const PREVIEWS = '/members/videopreviews/clip-1';

const files = async () => ({
  ...RENDITIONS,
  'videopreviews/clip-1/poster.jpg': await jpeg(320, 180),
  'videopreviews/clip-1/sprite.jpg': await jpeg(1600, 90),
  'videopreviews/clip-1/thumbs.vtt': 'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nsprite.jpg#xywh=0,0,160,90\n',
  'videopreviews/clip-1/trailer.mp4': RANGE_DATA,
  'vodpreviews/show-2/trailer.mp4': RANGE_DATA,
  '.partial/job-1-abc/720p.mp4': RANGE_DATA,
});

describeDeliveries('renditions and previews', files, (at) => {
  const { takedowns, offload } = at;

  it('plays a rendition inline for a member, with Range', async () => {
    const res = await raw(at.fx.media.url, RENDITION, { ...cookie(member()), Range: 'bytes=100-199' });
    expect(res.headers['content-disposition']).toBe('inline; filename="clip-1-720p.mp4"');
    expect(res.headers['content-type']).toBe('video/mp4');
    expect(res.headers['cache-control']).toBe('private, no-cache');
    if (offload) {
      // nginx applies the Range itself (tests/integration covers it through the real front door).
      expect(res.headers['x-accel-redirect']).toBe('/_protected/videorenditions/clip-1/720p.mp4');
    } else {
      expect(res.status).toBe(206);
      expect(res.headers['content-range']).toBe('bytes 100-199/1000');
      expect(res.body.equals(RANGE_DATA.subarray(100, 200))).toBe(true);
    }
  });

  it('asks of a rendition what its original asks: a session (401), a membership or the purchase (403)', async () => {
    expect((await raw(at.fx.media.url, RENDITION)).status).toBe(401);
    expect((await raw(at.fx.media.url, RENDITION, cookie(member({ membershipActiveUntil: null })))).status).toBe(403);
    expect((await raw(at.fx.media.url, VOD_RENDITION('show-1'), cookie(member({ membershipActiveUntil: null })))).status).toBe(200);
    expect((await raw(at.fx.media.url, VOD_RENDITION('show-2'), cookie(member()))).status).toBe(403);
    // Signed download links are for originals: the bff signs none for renditions, and another path's signature fails.
    const link = signDownloadUrl(keys, { path: '/members/video/clip-1/clip-1001.mp4', memberId: 42, expiresAt: now() + 3600 });
    expect((await raw(at.fx.media.url, `${RENDITION}${link.slice(link.indexOf('?'))}`)).status).toBe(403);
  });

  it('serves poster, sprite, thumbnails track and trailer to anyone, cacheable', async () => {
    for (const [file, type] of [
      ['poster.jpg', 'image/jpeg'],
      ['sprite.jpg', 'image/jpeg'],
      ['thumbs.vtt', 'text/vtt'],
      ['trailer.mp4', 'video/mp4'],
    ]) {
      const res = await raw(at.fx.media.url, `${PREVIEWS}/${file}`);
      expect(res.status, file).toBe(200);
      expect(res.headers['content-type']).toMatch(new RegExp(`^${type}`));
      expect(res.headers['cache-control']).toMatch(/^public, max-age=300, s-maxage=5$/);
      expect(res.headers['content-disposition']).toBeUndefined();
    }
    const vodTrailer = await raw(at.fx.media.url, '/members/vodpreviews/show-2/trailer.mp4', { Range: 'bytes=0-9' });
    expect(vodTrailer.status).toBe(offload ? 200 : 206);
  });

  it('never serves work in progress (the .partial folder) and 404s a missing rendition', async () => {
    expect((await raw(at.fx.media.url, '/members/.partial/job-1-abc/720p.mp4', cookie(member()))).status).toBe(404);
    expect((await raw(at.fx.media.url, '/members/videorenditions/.partial/720p.mp4', cookie(member()))).status).toBe(404);
    expect((await raw(at.fx.media.url, '/members/videorenditions/clip-1/1080p.mp4', cookie(member()))).status).toBe(404);
  });

  it('answers 410 for renditions and previews of a taken-down item, members included', async () => {
    takedowns.replace(['videorenditions/clip-1/', 'videopreviews/clip-1/']);
    try {
      expect((await raw(at.fx.media.url, RENDITION, cookie(member()))).status).toBe(410);
      expect((await raw(at.fx.media.url, `${PREVIEWS}/trailer.mp4`)).status).toBe(410);
    } finally {
      takedowns.replace([]);
    }
  });
});
