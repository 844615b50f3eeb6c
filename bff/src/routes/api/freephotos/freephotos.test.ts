import { beforeAll, expect, it } from 'vitest';
import { restore, takeDown } from '@media-site/db/content';
import { BAD_PAGES, describeCatalog, pageOf } from '../../../test/catalog-suite';

interface FreeSet {
  id: number;
  path: string;
  updatename: string;
  datetoupload: string;
  files: string[];
}

describeCatalog('free photo set listing', (ctx) => {
  // The fixture's one free set (free-01: x.jpg, y.jpg, 2024-01-01) and 11 more: a second page, a
  // date shared by several sets (the id breaks the tie, newest first), a set without files and a
  // file name that needs encoding.
  const sets: FreeSet[] = [];
  beforeAll(async () => {
    const { knex } = ctx().db;
    for (let k = 2; k <= 12; k += 1) {
      const path = `free-${String(k).padStart(2, '0')}`;
      await knex('freephotosets').insert({ path, updatename: `Free ${k}`, datetoupload: k % 3 ? `2024-0${(k % 9) + 1}-15` : '2024-01-01' });
    }
    const rows = (await knex('freephotosets').select('id', 'path', 'updatename', 'datetoupload')) as Array<
      Omit<FreeSet, 'datetoupload' | 'files'> & { datetoupload: unknown }
    >;
    for (const row of rows) {
      const files =
        row.path === 'free-01'
          ? ['x.jpg', 'y.jpg']
          : row.path === 'free-05'
            ? []
            : row.path === 'free-07'
              ? ['b 2.jpg', 'a#1.jpg']
              : [`${row.path}.jpg`];
      if (row.path !== 'free-01') {
        for (const [position, filename] of files.entries())
          await knex('freephotoset_files').insert({ freephotoset_id: row.id, position: position + 1, filename });
      }
      const day = row.datetoupload instanceof Date ? row.datetoupload.toISOString().slice(0, 10) : String(row.datetoupload).slice(0, 10);
      sets.push({ ...row, id: Number(row.id), datetoupload: day, files });
    }
  });

  const newestFirst = (a: FreeSet, b: FreeSet) =>
    a.datetoupload < b.datetoupload ? 1 : a.datetoupload > b.datetoupload ? -1 : b.id - a.id;
  const expected = (list: FreeSet[], page: number) =>
    pageOf([...list].sort(newestFirst), 10, page).map((s) => ({
      path: s.path,
      updatename: s.updatename,
      thumbnail: s.files[0] === undefined ? null : `/members/freephotos/${s.path}/${encodeURIComponent(s.files[0])}?w=640`,
      photocount: s.files.length,
    }));

  it('pages newest first, 10 to a page: a full page, the partial last page, then empty', async () => {
    expect(sets).toHaveLength(12);
    for (const page of [1, 2, 3, 10000]) {
      const res = await ctx()
        .request.get(`/api/freephotos/${page}`)
        .expect(200)
        .expect('Content-Type', /application\/json/);
      expect(res.body).toEqual(expected(sets, page));
    }
    const first = (await ctx().request.get('/api/freephotos/1').expect(200)).body as Array<{ path: string; thumbnail: string | null }>;
    expect(first).toHaveLength(10);
    expect(first.find((s) => s.path === 'free-05')?.thumbnail).toBeNull();
    expect(first.find((s) => s.path === 'free-07')?.thumbnail).toBe('/members/freephotos/free-07/b%202.jpg?w=640');
  });

  it.each(BAD_PAGES)('rejects page %j with 400', async (page) => {
    const res = await ctx().request.get(`/api/freephotos/${page}`).expect(400);
    expect(res.body.error.code).toBe('bad_request');
    expect(res.body.error.message).toMatch(/page/);
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const etag = (await ctx().request.get('/api/freephotos/1').expect(200)).headers.etag as string;
    expect(etag).toBeTruthy();
    await ctx().request.get('/api/freephotos/1').set('If-None-Match', etag).expect(304);
  });

  it('leaves out a taken-down set once the takedown moves the generation, cached answer included', async () => {
    const gone = [...sets].sort(newestFirst)[0]!;
    await ctx().request.get('/api/freephotos/1').expect(200);
    const change = { ref: { type: 'freephotoset' as const, path: gone.path }, actor: 'test', reason: 'test', now: Date.now() };
    await takeDown(ctx().db.knex, change);
    await ctx().cache.refreshGeneration();
    const without = sets.filter((s) => s.id !== gone.id);
    expect((await ctx().request.get('/api/freephotos/1').expect(200)).body).toEqual(expected(without, 1));
    expect((await ctx().request.get('/api/freephotos/2').expect(200)).body).toEqual(expected(without, 2));
    expect(expected(without, 2)).toHaveLength(1);
    await restore(ctx().db.knex, change);
    await ctx().cache.refreshGeneration();
    expect((await ctx().request.get('/api/freephotos/1').expect(200)).body).toEqual(expected(sets, 1));
  });
});
