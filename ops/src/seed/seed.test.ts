import { beforeAll, describe, expect, it } from 'vitest';
import { VOD_NAME_CUTOFF } from '@media-site/contracts/download-name';
import { modelInitial, readGeneration, searchText } from '@media-site/db';
import { seedDemoCatalog } from '../index';
import { DEMO_TAGS } from './names';
import { SAMPLE_CLIP_SECONDS } from './sample-video';
import { createTestDb, testBackends, type TestDb, useTestDb } from '@media-site/db/testing';

type Row = Record<string, unknown>;
const CONTENT = ['photosets', 'videos', 'vods'] as const;
const TABLES = ['models', 'photosets', 'photoset_files', 'freephotosets', 'freephotoset_files', 'videos', 'vods'] as const;

async function dump(db: TestDb): Promise<Record<string, Row[]>> {
  const out: Record<string, Row[]> = {};
  for (const table of TABLES) out[table] = await db.knex(table).select().orderBy('id');
  out.content_tags = await db.knex('content_tags').select().orderBy(['content_type', 'content_id', 'tag']);
  return out;
}

function duplicates(values: unknown[]): number {
  return values.length - new Set(values).size;
}

describe.each(testBackends())('demo seed on %s', (backend) => {
  const db = useTestDb(backend);
  let rows: Record<string, Row[]>;
  let generationBefore: number;
  const table = (name: string): Row[] => rows[name] ?? [];

  beforeAll(async () => {
    generationBefore = await readGeneration(db.knex);
    await seedDemoCatalog(db.knex);
    rows = await dump(db);
  });

  it('has the minimum counts and bumps the generation', async () => {
    expect(table('models').length).toBeGreaterThanOrEqual(40);
    for (const name of CONTENT) expect(table(name).length).toBeGreaterThanOrEqual(30);
    expect(await readGeneration(db.knex)).toBe(generationBefore + 1);
  });

  it('has models over many initials, with awkward names, computed initials and cover thumbnails', () => {
    const models = table('models');
    const names = models.map((m) => String(m.modelname));
    expect(new Set(models.map((m) => m.initial)).size).toBeGreaterThanOrEqual(10);
    expect(names.some((n) => n.includes("'"))).toBe(true);
    expect(names.some((n) => n.includes(' '))).toBe(true);
    expect(names.filter((n) => /[^\x20-\x7e]/.test(n)).length).toBeGreaterThanOrEqual(3);
    for (const m of models) {
      expect(m.initial).toBe(modelInitial(String(m.modelname)));
      if (m.thumbnail === null) continue;
      const cover = table('photosets').find((p) => `/members/photosthumbs/${String(p.path)}/large.jpg` === m.thumbnail);
      expect(cover?.model_id).toBe(m.id);
    }
  });

  it('links every item to an existing model and computes search_text', () => {
    const byId = new Map(table('models').map((m) => [m.id, m]));
    for (const name of CONTENT) {
      for (const row of table(name)) {
        expect(byId.get(row.model_id)?.modelname).toBe(row.modelname);
        expect(row.search_text).toBe(searchText(String(row.updatename), String(row.modelname)));
        expect(row.path).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
        expect(row.datetoupload).toMatch(/^20(19|2[0-6])-\d\d-\d\d$/);
      }
      expect(duplicates(table(name).map((r) => r.path))).toBe(0);
      expect(duplicates(table(name).map((r) => r.datetoupload))).toBeGreaterThan(0);
    }
    expect(duplicates(table('photosets').map((r) => r.updatename))).toBeGreaterThan(0);
  });

  it('gives most models photos, videos and VODs, and a couple nothing', () => {
    const owners = (name: string) => new Set(table(name).map((r) => r.model_id));
    const [photos, videos, vods] = CONTENT.map(owners) as [Set<unknown>, Set<unknown>, Set<unknown>];
    const full = table('models').filter((m) => photos.has(m.id) && videos.has(m.id) && vods.has(m.id));
    const empty = table('models').filter((m) => !photos.has(m.id) && !videos.has(m.id) && !vods.has(m.id));
    expect(full.length).toBeGreaterThanOrEqual(30);
    expect(empty.length).toBeGreaterThanOrEqual(2);
    expect(empty.every((m) => m.thumbnail === null)).toBe(true);
    expect(table('photosets').filter((p) => p.model_id === full[0]?.id).length).toBeGreaterThanOrEqual(1);
  });

  it('has VODs on both sides of the naming cutoff, in both formats, at the usual prices', () => {
    const vods = table('vods');
    const dates = vods.map((v) => String(v.datetoupload));
    expect(dates.filter((d) => d < VOD_NAME_CUTOFF).length).toBeGreaterThan(0);
    expect(dates.filter((d) => d > VOD_NAME_CUTOFF).length).toBeGreaterThan(0);
    expect(dates).toContain(VOD_NAME_CUTOFF);
    expect(new Set(vods.map((v) => Number(v.format)))).toEqual(new Set([0, 1]));
    expect(new Set(vods.map((v) => Number(v.price)))).toEqual(new Set([9.99, 14.99, 24.99]));
  });

  it('has a video prename for every download-name rule', () => {
    const branch = (p: string) =>
      /001\.mp4$/.test(p) ? 'mp4' : /001\.mpg$/.test(p) ? 'mpg' : /001\.wmv$/.test(p) ? 'wmv' : p.includes('HD') ? 'HD' : 'neither';
    const seen = new Set(table('videos').map((v) => branch(String(v.prename))));
    expect(seen).toEqual(new Set(['mp4', 'mpg', 'wmv', 'HD', 'neither']));
  });

  it('gives every video and VOD the running time of the sample clip placed for it', () => {
    for (const name of ['videos', 'vods']) {
      expect(new Set(table(name).map((v) => Number(v.duration))), name).toEqual(new Set([SAMPLE_CLIP_SECONDS]));
    }
  });

  it('has 6–12 ordered files per photo set and free sets with files', () => {
    for (const set of table('photosets')) {
      const files = table('photoset_files').filter((f) => f.photoset_id === set.id);
      expect(files.length).toBeGreaterThanOrEqual(6);
      expect(files.length).toBeLessThanOrEqual(12);
      expect(files.map((f) => f.position)).toEqual(files.map((_, i) => i + 1));
    }
    const free = table('freephotosets');
    expect(free.length).toBeGreaterThanOrEqual(2);
    for (const set of free) expect(table('freephotoset_files').filter((f) => f.freephotoset_id === set.id).length).toBeGreaterThan(0);
  });

  it('gives every photo set, video and VOD 1–4 tags of the neutral vocabulary, and free sets none', () => {
    const types = { photosets: 'photoset', videos: 'video', vods: 'vod' } as const;
    for (const name of CONTENT) {
      const tags = table('content_tags').filter((t) => t.content_type === types[name]);
      const perItem = new Map<unknown, string[]>();
      for (const t of tags) perItem.set(t.content_id, [...(perItem.get(t.content_id) ?? []), String(t.tag)]);
      expect(new Set(perItem.keys())).toEqual(new Set(table(name).map((r) => r.id)));
      expect(new Set([...perItem.values()].map((list) => list.length))).toEqual(new Set([1, 2, 3, 4]));
      // Every word is used, so the search's tag filter has something to count for each.
      expect(new Set(tags.map((t) => t.tag))).toEqual(new Set(DEMO_TAGS));
    }
    expect(new Set(table('content_tags').map((t) => t.content_type))).toEqual(new Set(Object.values(types)));
  });

  it('has titles with LIKE wildcards for search-escaping tests', () => {
    const titles = CONTENT.flatMap((name) => table(name).map((r) => String(r.updatename)));
    expect(titles.some((t) => t.includes('%'))).toBe(true);
    expect(titles.some((t) => t.includes('_'))).toBe(true);
  });

  it('gives identical rows in another database, and again after --reset', async () => {
    const other = await createTestDb(backend);
    try {
      await seedDemoCatalog(other.knex);
      expect(await dump(other)).toEqual(rows);
      await seedDemoCatalog(other.knex, { reset: true });
      expect(await dump(other)).toEqual(rows);
    } finally {
      await other.destroy();
    }
  });
});
