import { describe, expect, it } from 'vitest';
import { naturalCompare, unsafeNameReason } from './layout';
import { parseMeta } from './meta';

const vod = { updatename: 'T', modelname: 'M', datetoupload: '2024-02-29', prename: 'P', format: 0, price: 9.99 };

describe('meta.json', () => {
  it('accepts each type with its fields, trimming text and naming formats', () => {
    expect(parseMeta('freephotos', JSON.stringify({ updatename: ' Free ', datetoupload: '2025-01-01' }))).toEqual({
      ok: true,
      meta: { updatename: 'Free', datetoupload: '2025-01-01' },
    });
    expect(parseMeta('vod', JSON.stringify({ ...vod, format: 'mpg' }))).toMatchObject({ ok: true, meta: { format: 1 } });
  });

  it('folds the tags of photo sets, videos and VODs and drops repeats; a meta.json may leave them out', () => {
    const tags = ['Beach', ' Black and  White ', 'beach', 'Été'];
    const photos = { updatename: 'T', modelname: 'M', datetoupload: '2025-01-01', tags };
    expect(parseMeta('photos', JSON.stringify(photos))).toMatchObject({ ok: true, meta: { tags: ['beach', 'black and white', 'ete'] } });
    expect(parseMeta('video', JSON.stringify({ ...photos, prename: 'P', tags: [] }))).toMatchObject({ ok: true, meta: { tags: [] } });
    expect(parseMeta('vod', JSON.stringify({ ...vod, tags: ['city'] }))).toMatchObject({ ok: true, meta: { tags: ['city'] } });
    const untagged = parseMeta('vod', JSON.stringify(vod));
    expect(untagged.ok && 'tags' in untagged.meta).toBe(false);
  });

  it('refuses tags on free photos', () => {
    const free = parseMeta('freephotos', JSON.stringify({ updatename: 'F', datetoupload: '2025-01-01', tags: ['beach'] }));
    expect(free).toEqual({ ok: false, reason: expect.stringMatching(/tags/) });
  });

  it.each([
    [{ ...vod, datetoupload: '2023-02-29' }, /datetoupload: bad date \(not a calendar day\)/],
    [{ ...vod, datetoupload: '01/02/2024' }, /datetoupload: bad date \(want YYYY-MM-DD\)/],
    [{ ...vod, price: 9.999 }, /price: at most two decimals/],
    [{ ...vod, price: 0 }, /price/],
    [{ ...vod, format: 2 }, /format/],
    [{ ...vod, updatename: 'a\u0007b' }, /updatename: must not contain control characters/],
    [{ ...vod, modelname: 'x'.repeat(101) }, /modelname: at most 100 characters/],
    [{ ...vod, extra: true }, /extra/],
    [{ updatename: 'T' }, /modelname(.|\n)*datetoupload/],
    [{ ...vod, tags: ['beach', 'sun & sea'] }, /^meta\.json: tags: "sun & sea" may hold only letters, digits, spaces and hyphens$/],
    [{ ...vod, tags: ['x'.repeat(33)] }, /tags: "x+" is longer than 32 characters/],
    [{ ...vod, tags: ['  '] }, /tags: a tag must hold a letter or digit/],
    [{ ...vod, tags: Array.from({ length: 13 }, (_, i) => `tag ${i}`) }, /tags: at most 12/],
    [{ ...vod, tags: 'beach' }, /tags/],
    [{ ...vod, tags: [7] }, /tags\.0/],
  ])('refuses %j', (meta, reason) => {
    const result = parseMeta('vod', JSON.stringify(meta));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });
});

describe('names', () => {
  it.each(['set-01', 'A.b_c-9', 'x'])('%s is safe', (name) => expect(unsafeNameReason(name, 150)).toBeNull());
  it.each(['..', '.hidden', 'a/b', 'a\\b', 'a b', 'a..b', 'ümlaut', '-lead', 'a\u0000b'])('%j is refused', (name) =>
    expect(unsafeNameReason(name, 150)).not.toBeNull(),
  );
  it('limits the length', () => expect(unsafeNameReason('a'.repeat(151), 150)).toMatch(/longer than 150/));
  it('orders numbered files naturally', () =>
    expect(['a10.jpg', 'a2.jpg', 'a1.jpg'].sort(naturalCompare)).toEqual(['a1.jpg', 'a2.jpg', 'a10.jpg']));
});
