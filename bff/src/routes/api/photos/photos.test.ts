import { expect, it } from 'vitest';
import { BAD_PAGES, describeCatalog, pageOf } from '../../../test/catalog-suite';
import { byAlpha, byDate } from '../../../test/fixtures';

describeCatalog('photo listings', (ctx) => {
  const expected = (order: 'alpha' | 'date', page: number) =>
    pageOf([...ctx().catalog.photos].sort(order === 'alpha' ? byAlpha : byDate), 10, page).map((p) => ({
      photos_id: p.id,
      path: p.path,
      updatename: p.updatename,
      modelname: p.modelname,
      datetoupload: p.datetoupload,
      thumbnail: `/members/photosthumbs/${p.path}/large.jpg`,
    }));

  it.each([
    ['/api/photos', 'alpha'],
    ['/api/photos-by-date', 'date'],
  ] as const)('%s pages in %s order: full pages, the partial last page, then empty', async (route, order) => {
    expect(ctx().catalog.photos).toHaveLength(29);
    for (const page of [1, 2, 3, 4, 10000]) {
      const res = await ctx().request.get(`${route}/${page}`).expect(200).expect('Content-Type', /application\/json/);
      expect(res.body).toEqual(expected(order, page));
    }
    expect(expected(order, 3)).toHaveLength(9);
  });

  it.each(BAD_PAGES)('rejects page %j with 400', async (page) => {
    const res = await ctx().request.get(`/api/photos/${page}`).expect(400);
    expect(res.body.error.code).toBe('bad_request');
    expect(res.body.error.message).toMatch(/page/);
    await ctx().request.get(`/api/photos-by-date/${page}`).expect(400);
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await ctx().request.get('/api/photos/1').expect(200);
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    await ctx().request.get('/api/photos/1').set('If-None-Match', etag).expect(304);
  });
});
