import { expect, it } from 'vitest';
import { BAD_PAGES, describeCatalog, pageOf } from '../../../test/catalog-suite';
import type { ContentFixture } from '../../../test/fixtures';

const RANK = { photo: 0, video: 1, vod: 2 } as const;
const THUMB = {
  photo: (p: string) => `/members/photosthumbs/${p}/large.jpg`,
  video: (p: string) => `/members/videothumbs/${p}/${p}_02.jpg`,
  vod: (p: string) => `/members/vodthumbs/${p}/${p}_02.jpg`,
};

describeCatalog('updates feed', (ctx) => {
  const merged = () => {
    const { photos, videos, vods } = ctx().catalog;
    const tag =
      (type: keyof typeof RANK) => (c: ContentFixture & { photocount?: number; duration?: number | null; preview?: string | null }) => ({
        type,
        ...c,
      });
    return [...photos.map(tag('photo')), ...videos.map(tag('video')), ...vods.map(tag('vod'))].sort((a, b) =>
      a.datetoupload !== b.datetoupload ? (a.datetoupload < b.datetoupload ? 1 : -1) : RANK[a.type] - RANK[b.type] || b.id - a.id,
    );
  };

  it('merges photos, videos and VODs newest first in pages of 30', async () => {
    const all = merged();
    expect(all).toHaveLength(67);
    for (const page of [1, 2, 3, 4]) {
      const res = await ctx().request.get(`/api/updates/${page}`).expect(200);
      expect(res.body).toEqual(
        pageOf(all, 30, page).map((u) => ({
          type: u.type,
          id: u.id,
          path: u.path,
          thumbnail: THUMB[u.type](u.path),
          updatename: u.updatename,
          modelname: u.modelname,
          datetoupload: u.datetoupload,
          photocount: u.type === 'photo' ? u.photocount : null,
          duration: u.type === 'photo' ? null : u.duration,
          preview: u.type === 'photo' ? null : u.preview,
        })),
      );
    }
    expect(pageOf(all, 30, 3)).toHaveLength(7);
  });

  it.each(BAD_PAGES)('rejects page %j with 400', async (page) => {
    await ctx().request.get(`/api/updates/${page}`).expect(400);
  });
});
