import { expect, it } from 'vitest';
import { BAD_PAGES, describeCatalog, listItem, pageOf } from '../../../test/catalog-suite';
import { byDate, type VodFixture } from '../../../test/fixtures';

const item = (v: VodFixture) => ({
  ...listItem('vod_id', v, `/members/vodthumbs/${v.path}/${v.path}_02.jpg`),
  prename: v.prename,
  format: v.format,
  price: v.price,
  duration: v.duration,
});

describeCatalog('VOD listing and detail', (ctx) => {
  it('pages of 20, newest first, then the partial page, then empty', async () => {
    const sorted = [...ctx().catalog.vods].sort(byDate);
    for (const page of [1, 2, 3]) {
      const res = await ctx().request.get(`/api/vod/${page}`).expect(200);
      expect(res.body).toEqual(pageOf(sorted, 20, page).map(item));
    }
    expect(pageOf(sorted, 20, 2)).toHaveLength(6);
  });

  it.each(BAD_PAGES)('rejects page %j with 400', async (page) => {
    await ctx().request.get(`/api/vod/${page}`).expect(400);
  });

  it('gives the VOD item plus its download path', async () => {
    // The fixture dates are all after the 2024-01-28 cutoff or before it; both rules appear.
    for (const vod of ctx().catalog.vods.slice(0, 4)) {
      const res = await ctx().request.get(`/api/vod/prename/${vod.path}`).expect(200);
      const name =
        vod.datetoupload >= '2024-01-28'
          ? vod.prename.replace(/\.mov$/, vod.format === 0 ? '.mp4' : '.mpg')
          : `${vod.path}.${vod.format === 0 ? 'mp4' : 'mpg'}`;
      expect(res.body).toEqual({ ...item(vod), download: `/members/vod/${vod.path}/${name}`, tags: [] });
    }
  });

  it('404s an unknown folder and 400s a malformed one', async () => {
    await ctx().request.get('/api/vod/prename/nothing-here').expect(404);
    await ctx()
      .request.get(`/api/vod/prename/${'x'.repeat(151)}`)
      .expect(400);
  });
});
