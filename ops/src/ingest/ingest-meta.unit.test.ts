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
