import { expect, it } from 'vitest';
import { searchText } from '@media-site/db';
import { restore, takeDown } from '@media-site/db/content';
import { describeCatalog } from '../../../test/catalog-suite';
import { countContentQueries, testApp } from '../../../test/harness';

// Cache off, so every request reaches the search service and shows which path answered.
describeCatalog(
  'search index',
  (ctx) => {
    const search = async (term: string, request = ctx().request) => {
      const queries = countContentQueries(ctx().db.knex);
      try {
        const body = (await request.get(`/api/search/${encodeURIComponent(term)}`).expect(200)).body as Record<
          string,
          Array<{ path: string }>
        >;
        return { paths: body.photos!.map((p) => p.path), queries: queries.count };
      } finally {
        queries.stop();
      }
    };
    const addPhotoSet = (path: string, updatename: string) =>
      ctx()
        .db.knex('photosets')
        .insert({
          path,
          updatename,
          modelname: 'Anna Alpha',
          datetoupload: '2024-05-01',
          search_text: searchText(updatename, 'Anna Alpha'),
        });

    it('answers from the database while the index builds, then from memory with no query', async () => {
      const first = await search('title 07');
      expect(first.queries).toBeGreaterThan(0);
      expect(first.paths).toHaveLength(2);
      await ctx().searchIndex!.settled();
      expect(ctx().searchIndex!.status.state).toBe('ready');
      const second = await search('title 07');
      expect(second).toEqual({ paths: first.paths, queries: 0 });
    });

    it('shows a catalog change at once, from the database until the new index is built', async () => {
      await ctx().searchIndex!.settled();
      await addPhotoSet('fresh-set', 'Fresh arrival');
      await ctx().cache.catalogChanged();
      const during = await search('fresh arr');
      expect(during.paths).toEqual(['fresh-set']);
      expect(during.queries).toBeGreaterThan(0);
      await ctx().searchIndex!.settled();
      expect(await search('fresh arr')).toEqual({ paths: ['fresh-set'], queries: 0 });

      await ctx().db.knex('photosets').where({ path: 'fresh-set' }).delete();
      await ctx().cache.catalogChanged();
      expect((await search('fresh arr')).paths).toEqual([]);
    });

    it('leaves a taken-down item out of both paths once the generation moves', async () => {
      const before = (await search('title 07')).paths;
      const change = { ref: { type: 'photoset' as const, path: before[0]! }, actor: 'test', reason: 'test', now: Date.now() };
      await takeDown(ctx().db.knex, change);
      await ctx().cache.refreshGeneration();
      expect((await search('title 07')).paths).toEqual(before.slice(1));
      await ctx().searchIndex!.settled();
      expect(await search('title 07')).toEqual({ paths: before.slice(1), queries: 0 });
      await restore(ctx().db.knex, change);
      await ctx().cache.refreshGeneration();
      expect((await search('title 07')).paths).toEqual(before);
    });

    it('caps each type at 50 in title order, from either path', async () => {
      const extra = Array.from({ length: 60 }, (_, i) => `Capped ${String(59 - i).padStart(2, '0')}`);
      for (const [i, title] of extra.entries()) await addPhotoSet(`capped-${i}`, title);
      await ctx().cache.catalogChanged();
      const expected = Array.from({ length: 50 }, (_, n) => `capped-${59 - n}`);
      for (const term of ['capped', 'ca']) {
        expect((await search(term)).paths, `${term} from the database`).toEqual(expected);
        await ctx().searchIndex!.settled();
        expect(await search(term), `${term} from the index`).toEqual({ paths: expected, queries: 0 });
        await ctx().cache.catalogChanged();
      }
    });

    it('stays on the database for a generation with more rows than SEARCH_INDEX_MAX_ROWS', async () => {
      const small = await testApp(ctx().db.knex, { ttlSeconds: 0, searchIndex: { maxRows: 5, pageRows: 2 } });
      try {
        const expected = (await search('title 07')).paths;
        expect((await search('title 07', small.request)).paths).toEqual(expected);
        await small.searchIndex!.settled();
        expect(small.searchIndex!.status.state).toBe('too large');
        const again = await search('title 07', small.request);
        expect(again.paths).toEqual(expected);
        expect(again.queries).toBeGreaterThan(0);
      } finally {
        await small.close();
      }
    });
  },
  { ttlSeconds: 0, searchIndex: { maxRows: 1000, pageRows: 7 } },
);
