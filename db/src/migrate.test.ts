import { describe, expect, it } from 'vitest';
import { testBackends, useTestDb } from './testing';
import { bumpGeneration, createKnex, migrateLatest, migrateRollbackAll, modelInitial, readGeneration } from './index';

describe.each(testBackends())('migrations on %s', (backend) => {
  const db = useTestDb(backend);

  it('creates every catalog table', async () => {
    for (const table of [
      'models',
      'photosets',
      'photoset_files',
      'freephotosets',
      'freephotoset_files',
      'videos',
      'vods',
      'catalog_meta',
    ]) {
      expect(await db.knex.schema.hasTable(table)).toBe(true);
    }
  });

  it('is idempotent and reversible', async () => {
    expect(await migrateLatest(db.knex)).toEqual([]);
    await migrateRollbackAll(db.knex);
    expect(await db.knex.schema.hasTable('photosets')).toBe(false);
    const applied = await migrateLatest(db.knex);
    expect(applied[0]).toBe('001_catalog');
    expect(applied).toEqual([...applied].sort());
  });

  it('bumps the catalog generation', async () => {
    const before = await readGeneration(db.knex);
    expect(await bumpGeneration(db.knex)).toBe(before + 1);
  });
});

describe('model initials', () => {
  it.each([
    ['Model A1', 'M'],
    ['émilie', 'E'],
    ['Ørsted', 'O'],
    ['Łucja', 'L'],
    ['Ælfwyn', 'A'],
    ['Ωmega', '#'],
    ["O'Hara", 'O'],
    ['  zed', 'Z'],
    ['9 Lives', '#'],
  ])('%s → %s', (name, initial) => {
    expect(modelInitial(name)).toBe(initial);
  });
});

describe('bad DATABASE_URL', () => {
  it('is refused with a message', () => {
    expect(() => createKnex('postgres://x')).toThrow(/mysql:\/\/ or sqlite:/);
  });
});
