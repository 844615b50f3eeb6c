import { beforeAll, expect, it } from 'vitest';
import { foldForSearch } from '@media-site/db';
import { describeCatalog } from '../../../test/catalog-suite';
import { byAlpha, type ContentFixture } from '../../../test/fixtures';
import type { TestAppOptions } from '../../../test/harness';

// The same answers from both paths: the database (SEARCH_INDEX=off, or while an index builds) and
// the in-process index (built before the first request here).
const PATHS: Array<[string, TestAppOptions]> = [
  ['database', {}],
  ['index', { searchIndex: { maxRows: 1000, pageRows: 4 } }],
];

for (const [searchPath, options] of PATHS)
  describeCatalog(
    `search from the ${searchPath}`,
    (ctx) => {
      beforeAll(async () => {
        const index = ctx().searchIndex;
        if (!index) return;
        expect(index.current(await ctx().cache.generation())).toBeUndefined();
        await index.settled();
        expect(index.status.state).toBe('ready');
      });

      const get = async (term: string) =>
        (
          await ctx()
            .request.get(`/api/search/${encodeURIComponent(term)}`)
            .expect(200)
        ).body;
      const paths = (items: Array<{ path: string }>) => items.map((i) => i.path);
      // Every word of the term, folded, anywhere in the folded title or model name.
      const matching = <T extends ContentFixture>(rows: T[], term: string) => {
        const words = foldForSearch(term).split(/\s+/).filter(Boolean);
        return rows.filter((r) => words.every((w) => foldForSearch(`${r.updatename}\n${r.modelname}`).includes(w))).sort(byAlpha);
      };

      it('matches titles and model names case-insensitively, alphabetical, with the spec fields', async () => {
        const { photos, videos, vods } = ctx().catalog;
        const body = await get('TITLE 07');
        expect(paths(body.photos)).toEqual(paths(matching(photos, 'title 07')));
        expect(paths(body.videos)).toEqual(paths(matching(videos, 'title 07')));
        expect(paths(body.vods)).toEqual(paths(matching(vods, 'title 07')));
        expect(body.photos).toHaveLength(2);
        const first = matching(photos, 'title 07')[0]!;
        expect(body.photos[0]).toEqual({
          path: first.path,
          updatename: first.updatename,
          modelname: first.modelname,
          thumbnail: `/members/photosthumbs/${first.path}/large.jpg`,
          photocount: first.photocount,
        });
        const facts = new Map([...videos, ...vods].map((c) => [c.path, { duration: c.duration, preview: c.preview }]));
        for (const clip of [...body.videos, ...body.vods] as Array<{ path: string; duration: number | null; preview: string | null }>)
          expect({ duration: clip.duration, preview: clip.preview }, clip.path).toEqual(facts.get(clip.path));
      });

      it('matches a non-ASCII model name in any case', async () => {
        const { photos, vods } = ctx().catalog;
        const body = await get('ÉMILIE ÑOÑO');
        expect(paths(body.photos)).toEqual(paths(matching(photos, 'émilie ñoño')));
        expect(paths(body.vods)).toEqual(paths(matching(vods, 'émilie ñoño')));
        expect(body.photos.length).toBeGreaterThan(0);
      });

      it('ignores diacritics both ways: "emilie" finds what "Émilie" finds', async () => {
        const { photos, videos, vods } = ctx().catalog;
        const accented = await get('Émilie');
        expect(accented.photos.length).toBeGreaterThan(0);
        expect(paths(accented.photos)).toEqual(paths(photos.filter((p) => p.modelname === 'Émilie Ñoño').sort(byAlpha)));
        for (const term of ['emilie', 'EMILIE', 'émilie', 'nono', 'Emilie Nono', 'e\u0301milie']) {
          const body = await get(term);
          expect(paths(body.photos), term).toEqual(paths(accented.photos));
          expect(paths(body.videos), term).toEqual(paths(matching(videos, 'emilie')));
          expect(paths(body.vods), term).toEqual(paths(matching(vods, 'emilie')));
        }
      });

      it('matches all words in any order, each anywhere in the title or the model name', async () => {
        const { photos } = ctx().catalog;
        const forward = await get('alice title 07');
        expect(forward.photos.length).toBeGreaterThan(0);
        expect(paths(forward.photos)).toEqual(paths(matching(photos, 'title 07 alice')));
        for (const term of ['07 title alice', 'ALICE   07 TITLE', 'title alice 07 title', 'beta 07 Title ALICE'])
          expect(await get(term), term).toEqual(forward);
        const accented = await get('nono emilie');
        expect(accented.photos.length).toBeGreaterThan(0);
        expect(await get('Ñoño Émilie')).toEqual(accented);
        // Every word must match: one absent word empties the answer.
        expect(await get('title 07 nowhere')).toMatchObject({ photos: [], videos: [], vods: [] });
        // Short words (no trigram) are matched too.
        expect(paths((await get('07 a')).photos)).toEqual(paths(matching(photos, '07 a')));
        expect(paths((await get('al an')).photos)).toEqual(paths(matching(photos, 'an al')));
      });

      it.each([
        ['100%', ['special-percent']],
        ['%', ['special-percent']],
        ['snake_case', ['special-underscore']],
        ['_', ['special-underscore']],
        ['back\\slash', ['special-backslash']],
        ['\\', ['special-backslash']],
      ])('treats %j literally', async (term, expected) => {
        const body = await get(term);
        expect(paths(body.photos)).toEqual(expected);
        expect(body.videos).toEqual([]);
      });

      it('finds nothing for an absent term and bounds the term', async () => {
        expect(await get('no such thing')).toMatchObject({ photos: [], videos: [], vods: [] });
        await ctx()
          .request.get(`/api/search/${'q'.repeat(100)}`)
          .expect(200);
        const res = await ctx()
          .request.get(`/api/search/${'q'.repeat(101)}`)
          .expect(400);
        expect(res.body.error.message).toMatch(/search term/);
        await ctx().request.get('/api/search/%20%20%20').expect(400);
        await ctx().request.get('/api/search/a%07b').expect(400);
        // At most 8 words; a term of only combining marks holds no word.
        await ctx()
          .request.get(`/api/search/${encodeURIComponent('a b c d e f g h')}`)
          .expect(200);
        const many = await ctx()
          .request.get(`/api/search/${encodeURIComponent('a b c d e f g h i')}`)
          .expect(400);
        expect(many.body.error.message).toBe('search term must be at most 8 words');
        const marks = await ctx()
          .request.get(`/api/search/${encodeURIComponent('\u0301\u0301')}`)
          .expect(400);
        expect(marks.body.error.message).toMatch(/letter or digit/);
        // A malformed escape is searched as the literal text, never a 500.
        await ctx().request.get('/api/search/%E0%A4%A').expect(200);
      });
    },
    options,
  );
