import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createKnex, readGeneration, searchText } from '@media-site/db';
import { seedDemoCatalog, seedScale } from '../index';
import { testBackends, useTestDb } from '@media-site/db/testing';
import { seedCli, useTempDir } from '../test/seed-cli-kit';

describe.each(testBackends())('seed:scale on %s', (backend) => {
  const db = useTestDb(backend);
  beforeAll(async () => {
    await seedDemoCatalog(db.knex);
  });

  it('replaces the catalog with N rows per type and N/10 models, and bumps the generation', async () => {
    const before = await readGeneration(db.knex);
    const summary = await seedScale(db.knex, 1200);
    expect(summary).toMatchObject({ models: 120, photosets: 1200, videos: 1200, vods: 1200, tags: 7200, generation: before + 1 });
    for (const [table, n] of [
      ['models', 120],
      ['photosets', 1200],
      ['videos', 1200],
      ['vods', 1200],
      // Two per item; the demo's were emptied with the rest of the catalog.
      ['content_tags', 7200],
      ['photoset_files', 0],
      ['freephotosets', 0],
    ] as const) {
      expect(Number((await db.knex(table).count({ n: '*' }))[0]?.n)).toBe(n);
    }
  });

  it('writes consistent rows: models exist, covers are their photo sets, search_text computed', async () => {
    const models = new Map((await db.knex('models').select()).map((m) => [m.id, m]));
    expect(new Set([...models.values()].map((m) => m.initial)).size).toBeGreaterThanOrEqual(20);
    for (const table of ['photosets', 'videos', 'vods']) {
      for (const row of await db.knex(table).select().limit(200)) {
        expect(models.get(row.model_id)?.modelname).toBe(row.modelname);
        expect(row.search_text).toBe(searchText(row.updatename, row.modelname));
      }
    }
    const covers = await db.knex('photosets').whereIn('id', [1, 2, 120]).select('id', 'path', 'model_id');
    for (const cover of covers) expect(models.get(cover.model_id)?.thumbnail).toBe(`/members/photosthumbs/${cover.path}/large.jpg`);
  });

  it('is deterministic', async () => {
    const first = await db.knex('vods').select().orderBy('id');
    await seedScale(db.knex, 1200);
    expect(await db.knex('vods').select().orderBy('id')).toEqual(first);
  });
});

describe('seed CLIs', () => {
  const dir = useTempDir('seed-cli-');

  it.each([
    ['seed-scale.ts', ['--rows', 'abc']],
    ['seed-scale.ts', ['--rows', '0']],
    ['seed-scale.ts', ['--bogus']],
    ['seed.ts', ['--bogus']],
    ['seed.ts', ['extra']],
  ])('%s %j -> usage, exit 2', async (script, args) => {
    const result = await seedCli(script, args, { DATABASE_URL: `sqlite:${join(dir.path, 'unused.sqlite')}` });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/usage: npm run seed/);
  });

  it('seed:scale --rows 30 fills an SQLite file and says what it did', async () => {
    const url = `sqlite:${join(dir.path, 'scale.sqlite')}`;
    const result = await seedCli('seed-scale.ts', ['--rows', '30'], { DATABASE_URL: url });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/models 3, photosets 30, videos 30, vods 30, tags 180/);
    const knex = createKnex(url);
    try {
      expect(Number((await knex('vods').count({ n: '*' }))[0]?.n)).toBe(30);
    } finally {
      await knex.destroy();
    }
  });
});
