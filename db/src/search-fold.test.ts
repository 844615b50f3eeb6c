import { afterEach, describe, expect, it } from 'vitest';
import { foldForSearch, migrateLatest, readGeneration, searchText, SEARCH_TEXT_MAX } from './index';
import { migrateUpTo } from './migrate';
import { createTestDb, testBackends, type TestDb } from './testing';

describe('search folding', () => {
  it('drops diacritics and case, spells out letters without a decomposition', () => {
    expect(foldForSearch('Émilie Ñoño')).toBe('emilie nono');
    expect(foldForSearch('E\u0301MILIE')).toBe('emilie');
    expect(foldForSearch('Łódź Straße Øre Æble Þór İstanbul')).toBe('lodz strasse ore aeble thor istanbul');
    expect(foldForSearch('ﬁne ①')).toBe('fine 1');
    expect(foldForSearch('Привет Ёж')).toBe('привет еж');
    expect(searchText('Émilie at Noon', 'Mara Flex')).toBe('emilie at noon\nmara flex');
  });

  it('keeps search_text within its column, never ending in half a surrogate pair', () => {
    const long = searchText('ß'.repeat(200), 'x'.repeat(100));
    expect(long).toHaveLength(SEARCH_TEXT_MAX);
    const emoji = searchText(`${'a'.repeat(309)}😀`, 'x');
    expect(emoji).toBe('a'.repeat(309));
  });
});

describe.each(testBackends())('migration 009 folds existing search_text (%s)', (backend) => {
  const dbs: TestDb[] = [];
  afterEach(async () => {
    await Promise.all(dbs.splice(0).map((db) => db.destroy()));
  });

  it('recomputes every row and moves the catalog generation', async () => {
    const db = await createTestDb(backend, { migrate: false });
    dbs.push(db);
    await migrateUpTo(db.knex, '008_takedown_free_sets');
    const old = (u: string, m: string) => `${u.toLowerCase()}\n${m.toLowerCase()}`;
    const rows = Array.from({ length: 1203 }, (_, i) => ({
      path: `set-${i}`,
      updatename: `Été ${i}`,
      modelname: 'Émilie',
      datetoupload: '2025-01-01',
      search_text: old(`Été ${i}`, 'Émilie'),
    }));
    for (let i = 0; i < rows.length; i += 200) await db.knex('photosets').insert(rows.slice(i, i + 200));
    await db.knex('videos').insert({
      path: 'v',
      updatename: 'Plain',
      modelname: 'Mara Flex',
      datetoupload: '2025-01-01',
      search_text: 'plain\nmara flex',
      prename: 'v',
    });
    const before = await readGeneration(db.knex);

    expect(await migrateLatest(db.knex)).toContain('009_search_fold');

    const texts = (await db.knex('photosets').orderBy('id').select('search_text')).map((r: { search_text: string }) => r.search_text);
    expect(texts).toEqual(rows.map((r) => `ete ${r.path.slice(4)}\nemilie`));
    expect((await db.knex('videos').first('search_text'))?.search_text).toBe('plain\nmara flex');
    expect(await readGeneration(db.knex)).toBe(before + 1);
  });
});
