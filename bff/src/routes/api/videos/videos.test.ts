import { expect, it } from 'vitest';
import { BAD_PAGES, describeCatalog, listItem, pageOf } from '../../../test/catalog-suite';
import { byAlpha, byDate, type VideoFixture } from '../../../test/fixtures';

const item = (v: VideoFixture) => listItem('video_id', v, `/members/videothumbs/${v.path}/${v.path}_02.jpg`);

describeCatalog('video listings and prename', (ctx) => {
  const expected = (order: 'alpha' | 'date', page: number) =>
    pageOf([...ctx().catalog.videos].sort(order === 'alpha' ? byAlpha : byDate), 10, page).map(item);

  it.each([
    ['/api/videos', 'alpha'],
    ['/api/videos-by-date', 'date'],
  ] as const)('%s pages in %s order', async (route, order) => {
    for (const page of [1, 2, 3]) {
      const res = await ctx().request.get(`${route}/${page}`).expect(200);
      expect(res.body).toEqual(expected(order, page));
    }
    expect(expected(order, 2)).toHaveLength(2);
    expect(expected(order, 3)).toEqual([]);
  });

  it('sends each video’s running time in whole seconds, null while unknown', async () => {
    const all = [...((await ctx().request.get('/api/videos/1').expect(200)).body as Array<{ duration: number | null }>)];
    all.push(...((await ctx().request.get('/api/videos/2').expect(200)).body as Array<{ duration: number | null }>));
    expect(all.map((v) => v.duration).sort()).toEqual(
      ctx()
        .catalog.videos.map((v) => v.duration)
        .sort(),
    );
    expect(all.some((v) => v.duration === null)).toBe(true);
    expect(all.some((v) => (v.duration ?? 0) >= 3600)).toBe(true);
  });

  it('sends the thumbnails track of an encoded video only (its card’s hover preview)', async () => {
    const [encoded, queued, none] = ctx().catalog.videos;
    const detail = async (path: string) => (await ctx().request.get(`/api/videos/prename/${path}`).expect(200)).body.preview;
    expect(await detail(encoded!.path)).toBe(`/members/videopreviews/${encoded!.path}/thumbs.vtt`);
    expect(await detail(queued!.path)).toBeNull();
    expect(await detail(none!.path)).toBeNull();
  });

  it.each(BAD_PAGES)('rejects page %j with 400', async (page) => {
    await ctx().request.get(`/api/videos/${page}`).expect(400);
    await ctx().request.get(`/api/videos-by-date/${page}`).expect(400);
  });

  it('gives the prename and the download path', async () => {
    const plain = ctx().catalog.videos[0]!;
    const hd = ctx().catalog.videos[1]!;
    // Plus the list item's fields, for the video page's title, model and date.
    expect((await ctx().request.get(`/api/videos/prename/${plain.path}`).expect(200)).body).toEqual({
      prename: 'clip0',
      download: `/members/video/${plain.path}/clip0001.mpg`,
      ...item(plain),
      tags: [],
    });
    expect((await ctx().request.get(`/api/videos/prename/${hd.path}`).expect(200)).body).toEqual({
      prename: 'clip1HD',
      download: `/members/video/${hd.path}/clip1HD001.mp4`,
      ...item(hd),
      tags: [],
    });
  });

  it('404s an unknown folder and 400s a malformed one', async () => {
    const res = await ctx().request.get('/api/videos/prename/no-such-folder').expect(404);
    expect(res.body.error.code).toBe('not_found');
    await ctx()
      .request.get(`/api/videos/prename/${'a'.repeat(150)}`)
      .expect(404);
    for (const bad of ['a'.repeat(151), 'a%20b', '%2E%2E%2Fetc', 'a%00b', 'caf%C3%A9']) {
      const r = await ctx().request.get(`/api/videos/prename/${bad}`).expect(400);
      expect(r.body.error.message).toMatch(/folder/);
    }
  });
});
