import { describe, expect, it } from 'vitest';
import { trigramKey } from './postings';
import { TrigramIndex } from './trigram-index';

const build = (texts: string[]) =>
  TrigramIndex.build(
    texts.map((text, i) => ({ row: i, text })),
    0,
  );
const brute = (texts: string[], needle: string, limit: number) => texts.flatMap((t, i) => (t.includes(needle) ? [i] : [])).slice(0, limit);

describe('TrigramIndex', () => {
  const texts = [
    'alpha one\nanna',
    'beta two\nalice',
    'abcd',
    'bcde',
    'abcde',
    'émilie ñoño\nzoë',
    'aaaa',
    'smile 😀 now',
    'zz 1 100% real',
  ];

  it('answers 1-, 2- and 3+-code-unit needles like a plain includes, in load order', async () => {
    const index = await build(texts);
    for (const needle of [
      'a',
      'e',
      '\n',
      'ab',
      'ñ',
      'o\na',
      'abc',
      'abcde',
      'bcd',
      'alpha one\nanna',
      '100%',
      'aaa',
      'aaaa',
      'aaaaa',
      'émilie',
      'ñoño\nzoë',
      '😀',
      ' 😀 ',
      'zzz',
      'q',
    ]) {
      expect(index.find(needle, 50), needle).toEqual(brute(texts, needle, 50));
    }
  });

  it('never matches across two rows, and answers nothing from no rows', async () => {
    const index = await build(['xab', 'cdx', 'ab', 'c']);
    for (const needle of ['bc', 'abc', 'bcd', 'b\u0000c']) expect(index.find(needle, 50), needle).toEqual([]);
    expect(index.find('c', 50)).toEqual([1, 3]);
    expect((await build([])).find('a', 50)).toEqual([]);
  });

  it('verifies candidates that hold every trigram but not the needle', async () => {
    const index = await build(['abcd bcde', 'abcde']);
    expect(index.find('abcde', 50)).toEqual([1]);
  });

  it('stops at the limit, keeping the first rows in order', async () => {
    const many = Array.from({ length: 500 }, (_, i) => `title ${i % 7} model ${i}`);
    const index = await build(many);
    for (const needle of ['t', 'ti', 'title', 'title 3', 'model 4']) {
      const found = index.find(needle, 50);
      expect(found, needle).toEqual(brute(many, needle, 50));
    }
    expect(index.find('title', 50)).toHaveLength(50);
    expect(index.find('', 50)).toEqual([]);
    expect(index.find('title', 0)).toEqual([]);
  });

  it('agrees with includes on generated rows for every substring of a few rows', async () => {
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    const alphabet = ['a', 'b', 'c', 'é', ' ', 'ñ', '\n', '%', '_', 'ж', '中', '\u0400', '😀'];
    const rows = Array.from({ length: 300 }, () =>
      Array.from({ length: 4 + (next() % 12) }, () => alphabet[next() % alphabet.length]!).join(''),
    );
    const index = await build(rows);
    for (const row of rows.slice(0, 20)) {
      for (let start = 0; start < row.length; start++) {
        for (let end = start + 1; end <= row.length; end++) {
          const needle = row.slice(start, end);
          expect(index.find(needle, 50), needle).toEqual(brute(rows, needle, 50));
        }
      }
    }
    expect(index.size).toBe(300);
  });

  it('finds rows holding every needle, each anywhere, in load order and up to the limit', async () => {
    const rows = ['iron flex\nmara s6', 'flexible\nanna', 'urban flex\nemilie z3', 'mara\nno match', 'ab cd\nx', 'cd\nab'];
    const index = await build(rows);
    const all = (needles: string[], limit = 50) =>
      rows
        .map((text, i) => ({ text, i }))
        .filter(({ text }) => needles.every((n) => text.includes(n)))
        .map(({ i }) => i)
        .slice(0, limit);
    for (const needles of [
      ['flex', 'mara'],
      ['mara', 'flex'],
      ['flex'],
      ['ab', 'cd'],
      ['cd', 'ab', 'x'],
      ['a', 'fle'],
      ['e', 'z'],
      ['flex', 'nowhere'],
      ['ab', 'q'],
    ]) {
      expect(index.findAll(needles, 50), needles.join(' ')).toEqual(all(needles));
    }
    expect(index.findAll(['a', 'e'], 2)).toEqual(all(['a', 'e'], 2));
    expect(index.findAll([], 50)).toEqual([]);
    expect(index.findAll(['', 'flex'], 50)).toEqual(all(['flex']));
  });

  it('gives every trigram its own key, whatever its code units', () => {
    const units = [0, 1, 1023, 1024, 65535];
    const keys = new Set(units.flatMap((a) => units.flatMap((b) => units.map((c) => trigramKey(a, b, c)))));
    expect(keys.size).toBe(units.length ** 3);
  });
});
