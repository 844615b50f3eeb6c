import { beforeAll, expect, it } from 'vitest';
import { foldForSearch } from '@media-site/db';
import { describeCatalog } from '../../../test/catalog-suite';
import { byAlpha, type ContentFixture } from '../../../test/fixtures';
import type { TestAppOptions } from '../../../test/harness';

// Filters, sorts and counts answer the same from the database and from the in-process index.
const PATHS: Array<[string, TestAppOptions]> = [
  ['database', {}],
  ['index', { searchIndex: { maxRows: 1000, pageRows: 4 } }],
];

type Row = ContentFixture & { duration?: number | null; photocount?: number };
const TODAY = new Date().toISOString().slice(0, 10);

for (const [searchPath, options] of PATHS)
  describeCatalog(
    `search filters from the ${searchPath}`,
    (ctx) => {
      const tags = new Map<string, string[]>();
      const tagsOf = (type: string, row: Row) => tags.get(`${type}:${row.id}`) ?? [];

      beforeAll(async () => {
        const { knex } = ctx().db;
        const { photos, videos, vods } = ctx().catalog;
        const rows: Array<{ content_type: string; content_id: number; tag: string }> = [];
        const tag = (type: string, row: Row, ...names: string[]) => {
          tags.set(`${type}:${row.id}`, names);
          for (const name of names) rows.push({ content_type: type, content_id: row.id, tag: name });
        };
        photos.forEach((p, i) => i % 3 === 0 && tag('photoset', p, 'outdoor', ...(i % 2 ? ['beach'] : [])));
        videos.forEach((v, i) => i % 2 === 0 && tag('video', v, 'outdoor', 'black and white'));
        vods.forEach((v, i) => i % 4 === 1 && tag('vod', v, 'studio'));
        await knex('content_tags').insert(rows);
        // Two VODs released today (the release window); the catalog changes, so the index rebuilds.
        for (const vod of vods.slice(0, 2)) {
          await knex('vods').where({ id: vod.id }).update({ datetoupload: TODAY });
          vod.datetoupload = TODAY;
        }
        await ctx().cache.catalogChanged();
        const index = ctx().searchIndex;
        if (index) {
          await ctx().request.get('/api/search/warm').expect(200);
          await index.settled();
          expect(index.status.state).toBe('ready');
        }
      });

      const get = async (url: string) => (await ctx().request.get(url).expect(200)).body;
      const paths = (items: Array<{ path: string }>) => items.map((i) => i.path);
      const holds = (row: Row, term: string) =>
        foldForSearch(term)
          .split(/\s+/)
          .filter(Boolean)
          .every((w) => foldForSearch(`${row.updatename}\n${row.modelname}`).includes(w));
      const bucket = (d: number | null | undefined) => (!d ? undefined : d < 600 ? 'short' : d < 1800 ? 'medium' : 'long');

      it('narrows every group to a tag and counts the tags of the matches', async () => {
        const { photos, videos, vods } = ctx().catalog;
        const body = await get('/api/search/title?tag=outdoor');
        const want = (type: string, rows: Row[]) =>
          rows.filter((r) => holds(r, 'title') && tagsOf(type, r).includes('outdoor')).sort(byAlpha);
        expect(paths(body.photos)).toEqual(paths(want('photoset', photos)));
        expect(paths(body.videos)).toEqual(paths(want('video', videos)));
        expect(body.vods).toEqual([]);
        expect(body.photos.length).toBeGreaterThan(0);
        expect(body.facets.types).toEqual({ photos: want('photoset', photos).length, videos: want('video', videos).length, vods: 0 });
        // Tag counts apply every filter but the tag: all three tags of the "title" matches.
        const count = (name: string) =>
          [
            ...photos.map((r) => ['photoset', r] as const),
            ...videos.map((r) => ['video', r] as const),
            ...vods.map((r) => ['vod', r] as const),
          ].filter(([type, r]) => holds(r, 'title') && tagsOf(type, r).includes(name)).length;
        expect(body.facets.tags).toEqual(
          ['outdoor', 'black and white', 'studio', 'beach']
            .map((tag) => ({ tag, count: count(tag) }))
            .sort((a, b) => b.count - a.count || (a.tag < b.tag ? -1 : 1)),
        );
        // A tag is folded as stored: any case, accents dropped.
        expect(await get('/api/search/title?tag=OUTDÖOR'.replace('Ö', 'O'))).toEqual(body);
      });

      it('filters by running time (photo sets have none) and counts each bucket', async () => {
        const { videos, vods } = ctx().catalog;
        const body = await get('/api/search/title?duration=medium');
        const want = (rows: Row[]) => rows.filter((r) => holds(r, 'title') && bucket(r.duration) === 'medium').sort(byAlpha);
        expect(body.photos).toEqual([]);
        expect(paths(body.videos)).toEqual(paths(want(videos)));
        expect(paths(body.vods)).toEqual(paths(want(vods)));
        expect(body.videos.length + body.vods.length).toBeGreaterThan(0);
        const all = [...videos, ...vods].filter((r) => holds(r, 'title'));
        expect(body.facets.durations).toEqual({
          short: all.filter((r) => bucket(r.duration) === 'short').length,
          medium: all.filter((r) => bucket(r.duration) === 'medium').length,
          long: all.filter((r) => bucket(r.duration) === 'long').length,
        });
        expect(body.facets.types.photos).toBe(0);
      });

      it('filters by type and still counts the other types', async () => {
        const { photos, videos, vods } = ctx().catalog;
        const body = await get('/api/search/title?type=videos');
        expect(body.photos).toEqual([]);
        expect(body.vods).toEqual([]);
        expect(paths(body.videos)).toEqual(paths(videos.filter((r) => holds(r, 'title')).sort(byAlpha)));
        expect(body.facets.types).toEqual({
          photos: photos.filter((r) => holds(r, 'title')).length,
          videos: videos.filter((r) => holds(r, 'title')).length,
          vods: vods.filter((r) => holds(r, 'title')).length,
        });
        expect(body.facets.capped).toBe(false);
      });

      it('sorts newest first and longest first', async () => {
        const { videos, vods } = ctx().catalog;
        const newest = await get('/api/search/title?sort=newest&type=vods');
        const byNewest = (a: Row, b: Row) => (a.datetoupload < b.datetoupload ? 1 : a.datetoupload > b.datetoupload ? -1 : b.id - a.id);
        expect(paths(newest.vods)).toEqual(paths(vods.filter((r) => holds(r, 'title')).sort(byNewest)));
        const longest = await get('/api/search/title?sort=longest&type=videos');
        const byLength = (a: Row, b: Row) => (b.duration ?? 0) - (a.duration ?? 0) || byAlpha(a, b);
        expect(paths(longest.videos)).toEqual(paths(videos.filter((r) => holds(r, 'title')).sort(byLength)));
        expect(longest.videos[0].duration).toBe(Math.max(...videos.map((v) => v.duration ?? 0)));
      });

      it('keeps what was released in the window, counting each window', async () => {
        const body = await get('/api/search/title?date=week');
        expect(body.photos).toEqual([]);
        expect(body.videos).toEqual([]);
        expect(paths(body.vods)).toEqual(paths(ctx().catalog.vods.slice(0, 2).sort(byAlpha)));
        expect(body.facets.dates).toEqual({ week: 2, month: 2, year: 2 });
      });

      it('filters by exact model name and searches with filters alone', async () => {
        const { photos } = ctx().catalog;
        const model = photos[0]!.modelname;
        const body = await get(`/api/search/title?model=${encodeURIComponent(model)}&type=photos`);
        expect(paths(body.photos)).toEqual(paths(photos.filter((r) => holds(r, 'title') && r.modelname === model).sort(byAlpha)));
        const alone = await get('/api/search?tag=outdoor&type=photos');
        expect(paths(alone.photos)).toEqual(paths(photos.filter((r) => tagsOf('photoset', r).includes('outdoor')).sort(byAlpha)));
        // Every item, when the term is absent: Zara Delta's specials have no "title" in them.
        expect(alone.photos.some((p: { modelname: string }) => p.modelname === 'Zara Delta')).toBe(
          photos.some((p) => p.modelname === 'Zara Delta' && tagsOf('photoset', p).includes('outdoor')),
        );
      });

      it('answers a filtered address with its own answer, replayed or not', async () => {
        const plain = await get('/api/search/title');
        const videosOnly = await get('/api/search/title?type=videos');
        expect(videosOnly.photos).toEqual([]);
        expect(plain.photos.length).toBeGreaterThan(0);
        for (let i = 0; i < 3; i++) {
          expect(await get('/api/search/title?type=videos')).toEqual(videosOnly);
          expect(await get('/api/search/title')).toEqual(plain);
          expect(await get('/api/search/title?type=photos')).not.toEqual(videosOnly);
        }
      });

      it.each([
        ['/api/search/title?type=films', 'type must be one of photos, videos, vods'],
        ['/api/search/title?tag=%3Cb%3E', 'tag: "<b>" may hold only letters, digits, spaces and hyphens'],
        ['/api/search/title?sort=best', 'sort must be one of alpha, newest, longest'],
        ['/api/search/title?duration=1h', 'duration must be one of short, medium, long'],
        ['/api/search/title?date=today', 'date must be one of week, month, year'],
        ['/api/search/title?colour=red', 'unknown filter colour'],
        ['/api/search/title?tag=a&tag=b', 'tag must be given once'],
        ['/api/search/title?type=videos&type=vods', 'type must be one of photos, videos, vods'],
        ['/api/search/title?tag=%3Cb%3E', 'may hold only letters, digits, spaces and hyphens'],
        [`/api/search/title?tag=${'a'.repeat(33)}`, 'longer than 32 characters'],
        [`/api/search/title?tag=${'a'.repeat(100)}`, 'tag must be at most 32 characters'],
        ['/api/search/title?tag=%20', 'a tag must hold a letter or digit'],
        [`/api/search/title?model=${'m'.repeat(101)}`, 'model must be 1 to 100 characters'],
        ['/api/search', 'give a search term or at least one filter'],
        ['/api/search?sort=newest', 'give a search term or at least one filter'],
      ])('refuses %s with a sentence', async (url, message) => {
        const res = await ctx().request.get(url).expect(400);
        expect(res.body.error.message).toContain(message);
        // One sentence that names its parameter once ("type must be…", never "type: type must be…").
        expect(res.body.error.message).not.toMatch(/^(\w+): \1\b|^body:/);
      });
    },
    options,
  );
