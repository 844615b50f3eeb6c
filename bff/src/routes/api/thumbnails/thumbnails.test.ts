import { expect, it } from 'vitest';
import { describeCatalog, expectStatuses } from '../../../test/catalog-suite';

describeCatalog('thumbnail lists', (ctx) => {
  it('lists a set’s file names in position order', async () => {
    const [first, second] = ctx().catalog.photos;
    expect((await ctx().request.get(`/api/thumbnails/${first!.path}`).expect(200)).body).toEqual(['a.jpg', 'b.jpg', 'c.jpg']);
    expect((await ctx().request.get(`/api/thumbnails/${second!.path}`).expect(200)).body).toEqual([]);
    expect((await ctx().request.get('/api/freethumbnails/free-01').expect(200)).body).toEqual(['x.jpg', 'y.jpg']);
  });

  it('404s unknown folders and 400s malformed ones', async () => {
    await expectStatuses(ctx().request, [
      ['/api/thumbnails/free-01', 404],
      ['/api/freethumbnails/Photo-set-01', 404],
      [`/api/thumbnails/${'p'.repeat(151)}`, 400],
      ['/api/freethumbnails/a%2Fb', 400],
      ['/api/thumbnails/..%5C..', 400],
    ]);
  });
});
