import { expect, it } from 'vitest';
import { restore, takeDown } from '@media-site/db/content';
import { BAD_PAGES, describeCatalog, listItem, pageOf } from '../../../test/catalog-suite';
import { byAlpha, byDate } from '../../../test/fixtures';

describeCatalog('photo listings', (ctx) => {
  const expected = (order: 'alpha' | 'date', page: number) =>
    pageOf([...ctx().catalog.photos].sort(order === 'alpha' ? byAlpha : byDate), 10, page).map((p) =>
      listItem('photos_id', p, `/members/photosthumbs/${p.path}/large.jpg`),
    );

  it.each([
    ['/api/photos', 'alpha'],
    ['/api/photos-by-date', 'date'],
  ] as const)('%s pages in %s order: full pages, the partial last page, then empty', async (route, order) => {
    expect(ctx().catalog.photos).toHaveLength(29);
    for (const page of [1, 2, 3, 4, 10000]) {
      const res = await ctx()
        .request.get(`${route}/${page}`)
        .expect(200)
        .expect('Content-Type', /application\/json/);
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

  it('gives a set’s title, model, date, count, files and tags; 404s an unknown set, 400s a malformed folder', async () => {
    const first = ctx().catalog.photos[0]!;
    // Tags A–Z, whatever order they were stored in.
    await ctx()
      .db.knex('content_tags')
      .insert(['studio', 'beach'].map((tag) => ({ content_type: 'photoset', content_id: first.id, tag })));
    await ctx().cache.catalogChanged();
    const res = await ctx()
      .request.get(`/api/photos/set/${first.path}`)
      .expect(200)
      .expect('Content-Type', /application\/json/);
    expect(res.body).toEqual({
      ...listItem('photos_id', first, `/members/photosthumbs/${first.path}/large.jpg`),
      count: 3,
      files: ['a.jpg', 'b.jpg', 'c.jpg'],
      tags: ['beach', 'studio'],
    });
    const etag = res.headers.etag as string;
    await ctx().request.get(`/api/photos/set/${first.path}`).set('If-None-Match', etag).expect(304);
    const empty = (await ctx().request.get(`/api/photos/set/${ctx().catalog.photos[1]!.path}`).expect(200)).body;
    expect([empty.count, empty.files, empty.tags]).toEqual([0, [], []]);
    expect((await ctx().request.get('/api/photos/set/no-such-set').expect(404)).body.error.code).toBe('not_found');
    await ctx().request.get('/api/photos/set/free-01').expect(404);
    for (const bad of ['a'.repeat(151), 'a%20b', '..%2Fx']) await ctx().request.get(`/api/photos/set/${bad}`).expect(400);
  });

  it('404s a taken-down set once the takedown moves the generation, cached answer included', async () => {
    const set = ctx().catalog.photos[2]!;
    await ctx().request.get(`/api/photos/set/${set.path}`).expect(200);
    await ctx().request.get(`/api/photos/set/${set.path}`).expect(200);
    const change = { ref: { type: 'photoset' as const, path: set.path }, actor: 'test', reason: 'test', now: Date.now() };
    await takeDown(ctx().db.knex, change);
    await ctx().cache.refreshGeneration();
    await ctx().request.get(`/api/photos/set/${set.path}`).expect(404);
    await restore(ctx().db.knex, change);
    await ctx().cache.refreshGeneration();
    await ctx().request.get(`/api/photos/set/${set.path}`).expect(200);
  });
});
