import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Knex } from 'knex';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readGeneration } from '@media-site/db';
import { setVodPrice } from '@media-site/db/payments';
import { ingestFolder, type IngestReport } from './ingest';
import { testBackends, useTestDb } from '@media-site/db/testing';
import { buildIngestFolder, EXPECTED_SKIPS, VALID_ITEMS } from '../test/fixtures-ingest/build';
import { FIXTURE_CLIP as SAMPLE_CLIP } from '../seed/sample-video';

const FFMPEG = { ffmpeg: 'ffmpeg', ffprobe: 'ffprobe' };
const NO_FFMPEG = { ffmpeg: '/nonexistent/ffmpeg', ffprobe: '/nonexistent/ffprobe' };
const hasFfmpeg = (() => {
  try {
    execFileSync('ffmpeg', ['-version'], { stdio: 'ignore' });
    execFileSync('ffprobe', ['-version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const CATALOG_TABLES = ['models', 'photosets', 'photoset_files', 'freephotosets', 'freephotoset_files', 'videos', 'vods'];

/** Every catalog row, ids included, with numbers normalised (mysql2 returns decimals as strings). */
async function snapshot(knex: Knex): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of CATALOG_TABLES) {
    const rows: Record<string, unknown>[] = await knex(table).orderBy('id');
    out[table] = rows.map((row) =>
      Object.fromEntries(
        Object.entries(row).map(([k, v]) => [k, typeof v === 'string' && /^(?:id|.*_id|price|format|position)$/.test(k) ? Number(v) : v]),
      ),
    );
  }
  return out;
}

async function listTree(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await listTree(join(dir, entry.name), rel)));
    else out.push(rel);
  }
  return out.sort();
}

const validCount = Object.values(VALID_ITEMS).flat().length;
let source: string;
const snapshots = new Map<string, Record<string, unknown[]>>();
const tempDirs: string[] = [];

async function tempMediaRoot(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ingest-media-'));
  tempDirs.push(dir);
  return dir;
}

beforeAll(async () => {
  source = await buildIngestFolder();
  tempDirs.push(source);
});

afterAll(async () => {
  await Promise.all(tempDirs.map((d) => rm(d, { recursive: true, force: true })));
});

describe.each(testBackends())('ingest on %s', (backend) => {
  const db = useTestDb(backend);
  let mediaRoot: string;
  let first: IngestReport;
  let second: IngestReport;

  beforeAll(async () => {
    mediaRoot = await tempMediaRoot();
    first = await ingestFolder({ knex: db.knex, folder: source, mediaRoot, ffmpeg: FFMPEG });
    snapshots.set(backend, await snapshot(db.knex));
    second = await ingestFolder({ knex: db.knex, folder: source, mediaRoot, ffmpeg: FFMPEG });
  });

  it('adds every valid item on the first run', () => {
    expect(first.failed).toEqual([]);
    expect(first.totals).toEqual({ added: validCount, updated: 0, unchanged: 0 });
    expect(first.byType.photos.added).toBe(VALID_ITEMS.photos.length);
    expect(first.byType.vod.added).toBe(VALID_ITEMS.vod.length);
    // Model A1 / model a1 are one model; Émilie B, Model C3, Model D4 are new.
    expect(first.modelsCreated).toBe(4);
    expect(first.generation.after).toBe(first.generation.before + 1);
  });

  it('gives the same catalog on a second run: 0 added, 0 updated, nothing copied, no new generation', async () => {
    expect(second.totals).toEqual({ added: 0, updated: 0, unchanged: validCount });
    expect(second.filesWritten).toBe(0);
    expect(second.generation).toEqual({ before: first.generation.after, after: first.generation.after });
    expect(await snapshot(db.knex)).toEqual(snapshots.get(backend));
  });

  it('reports every skipped item and file with its reason, on both runs', () => {
    for (const report of [first, second]) {
      const byWhere = new Map(report.skipped.map((s) => [s.where, s.reason]));
      for (const [where, reason] of EXPECTED_SKIPS) expect(byWhere.get(where), where).toMatch(reason);
      expect(report.skipped).toHaveLength(EXPECTED_SKIPS.length);
    }
  });

  it('writes rows the API contract expects', async () => {
    const sets = await db.knex('photosets').orderBy('path');
    expect(sets.map((s) => [s.path, s.modelname, s.datetoupload, s.search_text])).toEqual([
      ['set-alpha', 'Model A1', '2025-03-14', 'alpha morning\nmodel a1'],
      // "model a1" in meta.json joins the existing model under its canonical name.
      ['set-beta', 'Model A1', '2024-11-02', 'beta granite\nmodel a1'],
    ]);
    const files = await db
      .knex('photoset_files')
      .join('photosets', 'photosets.id', 'photoset_files.photoset_id')
      .where('photosets.path', 'set-alpha')
      .orderBy('position')
      .select('filename', 'position');
    expect(files).toEqual([
      { filename: 'a1.jpg', position: 1 },
      { filename: 'a2.jpg', position: 2 },
      { filename: 'a10.jpg', position: 3 },
    ]);
    // Sorted in JS: MySQL's collation puts É beside E, SQLite sorts by code point.
    const models = (await db.knex('models').orderBy('id').select('modelname', 'initial', 'thumbnail')).sort((a, b) =>
      a.modelname < b.modelname ? -1 : 1,
    );
    expect(models).toEqual([
      { modelname: 'Model A1', initial: 'M', thumbnail: '/members/photosthumbs/set-alpha/large.jpg' },
      { modelname: 'Model C3', initial: 'M', thumbnail: hasFfmpeg ? '/members/videothumbs/clip-plain/clip-plain_02.jpg' : null },
      { modelname: 'Model D4', initial: 'M', thumbnail: hasFfmpeg ? '/members/vodthumbs/vod-old/vod-old_02.jpg' : null },
      { modelname: 'Émilie B', initial: 'E', thumbnail: hasFfmpeg ? '/members/videothumbs/clip-hd/clip-hd_02.jpg' : null },
    ]);
    const vods = await db.knex('vods').orderBy('path').select('path', 'format', 'price', 'prename');
    expect(vods.map((v) => ({ ...v, format: Number(v.format), price: Number(v.price) }))).toEqual([
      { path: 'vod-new', format: 0, price: 14.99, prename: 'ModelA1_SummitDay.wmv' },
      { path: 'vod-old', format: 1, price: 9.99, prename: 'ignored-before-cutoff' },
    ]);
  });

  it('lays the media out as the media service serves it, files named by their download names', async () => {
    const tree = await listTree(mediaRoot);
    expect(tree).toEqual(
      expect.arrayContaining([
        'photos/set-alpha/a1.jpg',
        'photos/set-alpha/a10.jpg',
        'photosthumbs/set-alpha/a1.jpg',
        'photosthumbs/set-alpha/large.jpg',
        'photosthumbs/set-beta/b1.png',
        'photosthumbs/set-beta/large.jpg',
        'freephotos/free-one/f1.jpg',
        'video/clip-hd/V001_EmilieB_HarbourRun_HD001.mp4',
        'video/clip-plain/V002_ModelC3_QuietHall001.mpg',
        'vod/vod-new/ModelA1_SummitDay.mp4',
        'vod/vod-old/vod-old.mpg',
      ]),
    );
    expect(tree.filter((f) => f.includes('.tmp'))).toEqual([]);
    expect(tree.some((f) => f.includes('notes.txt') || f.includes('linked.jpg') || f.startsWith('photos/bad'))).toBe(false);
    // The provided cover was copied, not regenerated from the set's first image.
    expect(await sharp(join(mediaRoot, 'photosthumbs/set-beta/large.jpg')).metadata()).toMatchObject({ width: 64, height: 64 });
    expect(await sharp(join(mediaRoot, 'photosthumbs/set-alpha/large.jpg')).metadata()).toMatchObject({
      width: 640,
      height: 427,
      format: 'jpeg',
    });
    expect(await sharp(join(mediaRoot, 'photosthumbs/set-alpha/a2.jpg')).metadata()).toMatchObject({ width: 320, height: 213 });
  });

  it.skipIf(!hasFfmpeg)('extracts the four video thumbnails with ffmpeg', async () => {
    expect(first.frames).toBe('ffmpeg');
    for (const [dir, path] of [
      ['videothumbs', 'clip-hd'],
      ['vodthumbs', 'vod-old'],
    ]) {
      for (const suffix of ['02', '05', '10', '15']) {
        const meta = await sharp(join(mediaRoot, dir as string, path as string, `${path}_${suffix}.jpg`)).metadata();
        expect(meta.format).toBe('jpeg');
        expect(meta.width).toBeGreaterThan(0);
      }
    }
  });
});

describe('ingest details', () => {
  const db = useTestDb('sqlite');

  it('a dry run reports what would change and writes nothing', async () => {
    const mediaRoot = await tempMediaRoot();
    const report = await ingestFolder({ knex: db.knex, folder: source, mediaRoot, ffmpeg: FFMPEG, dryRun: true });
    expect(report.totals).toEqual({ added: validCount, updated: 0, unchanged: 0 });
    expect(await db.knex('photosets').count({ n: '*' }).first()).toEqual({ n: 0 });
    expect(await db.knex('models').count({ n: '*' }).first()).toEqual({ n: 0 });
    expect(await readdir(mediaRoot)).toEqual([]);
    expect(await readGeneration(db.knex)).toBe(report.generation.before);
  });

  it('without ffmpeg the items still go in, and the missing thumbnails are reported', async () => {
    const mediaRoot = await tempMediaRoot();
    const report = await ingestFolder({ knex: db.knex, folder: source, mediaRoot, ffmpeg: NO_FFMPEG });
    expect(report.failed).toEqual([]);
    expect(report.totals.added).toBe(validCount);
    expect(report.frames).toBe('provided only');
    expect(report.notes.some((n) => /video\/clip-hd: no thumbnails .*ffmpeg not found/.test(n))).toBe(true);
    await expect(stat(join(mediaRoot, 'videothumbs/clip-hd/clip-hd_02.jpg'))).rejects.toThrow();
  });

  it('picks up an edited meta.json as an update and bumps the generation', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'ingest-edit-'));
    tempDirs.push(folder);
    const mediaRoot = await tempMediaRoot();
    await buildOne(folder, 'Edit Me');
    const first = await ingestFolder({ knex: db.knex, folder, mediaRoot, ffmpeg: null });
    expect(first.totals.added).toBe(1);
    await buildOne(folder, 'Edited Title');
    const second = await ingestFolder({ knex: db.knex, folder, mediaRoot, ffmpeg: null });
    expect(second.totals).toEqual({ added: 0, updated: 1, unchanged: 0 });
    expect(second.generation.after).toBe(first.generation.after + 1);
    expect(await db.knex('photosets').where({ path: 'edit-me' }).first('updatename', 'search_text')).toEqual({
      updatename: 'Edited Title',
      search_text: 'edited title\nmodel e5',
    });
  });

  it("writes meta.json's tags to content_tags, folded; a meta.json without a tags key keeps them, [] clears them", async () => {
    const folder = await mkdtemp(join(tmpdir(), 'ingest-tags-'));
    tempDirs.push(folder);
    const mediaRoot = await tempMediaRoot();
    const tagsOfSet = async () => {
      const set = await db.knex('photosets').where({ path: 'tagged' }).first('id');
      const rows = await db.knex('content_tags').where({ content_type: 'photoset', content_id: set.id }).select('tag');
      return rows.map((r) => r.tag).sort();
    };
    const ingest = () => ingestFolder({ knex: db.knex, folder, mediaRoot, ffmpeg: null });
    const build = (more: Record<string, unknown> = {}) => buildOne(folder, 'Tagged', more, 'tagged');
    await build({ tags: ['Beach', 'Black  and White', 'beach'] });
    expect((await ingest()).totals).toEqual({ added: 1, updated: 0, unchanged: 0 });
    expect(await tagsOfSet()).toEqual(['beach', 'black and white']);
    await build({ tags: ['black and white', 'BEACH'] });
    expect((await ingest()).totals).toEqual({ added: 0, updated: 0, unchanged: 1 });
    await build();
    expect((await ingest()).totals).toEqual({ added: 0, updated: 0, unchanged: 1 });
    expect(await tagsOfSet()).toEqual(['beach', 'black and white']);
    await build({ tags: ['city'] });
    const retagged = await ingest();
    expect(retagged.totals).toEqual({ added: 0, updated: 1, unchanged: 0 });
    expect(retagged.generation.after).toBeGreaterThan(retagged.generation.before);
    expect(await tagsOfSet()).toEqual(['city']);
    await build({ tags: [] });
    expect((await ingest()).totals).toEqual({ added: 0, updated: 1, unchanged: 0 });
    expect(await tagsOfSet()).toEqual([]);
  });

  it("a VOD without a price gets the console's default VOD price when new, keeps its own when known, and is refused when none is set", async () => {
    const folder = await mkdtemp(join(tmpdir(), 'ingest-vod-price-'));
    tempDirs.push(folder);
    const mediaRoot = await tempMediaRoot();
    const vod = async (path: string, more: Record<string, unknown> = {}) => {
      const dir = join(folder, 'vod', path);
      await mkdir(dir, { recursive: true });
      await copyFile(SAMPLE_CLIP, join(dir, 'take.mp4'));
      const fields = { updatename: `Priced ${path}`, modelname: 'Model P1', datetoupload: '2025-06-01', prename: path, format: 0, ...more };
      await writeFile(join(dir, 'meta.json'), JSON.stringify(fields));
    };
    const ingest = () => ingestFolder({ knex: db.knex, folder, mediaRoot, ffmpeg: null });
    const priceOf = async (path: string) => (await db.knex('vods').where({ path }).first('price'))?.price;
    await vod('unpriced');
    const refused = await ingest();
    expect(refused.skipped).toEqual([
      { where: 'vod/unpriced', reason: 'meta.json names no price, and no default VOD price is set (console: Prices)' },
    ]);
    expect(await priceOf('unpriced')).toBeUndefined();
    await setVodPrice(db.knex, '6.50', { actor: 'owner', address: '127.0.0.1', now: Date.now() });
    expect((await ingest()).totals.added).toBe(1);
    expect(Number(await priceOf('unpriced'))).toBe(6.5);
    // Its own price wins; a meta.json without one again keeps it, whatever the default is now.
    await vod('unpriced', { price: 12 });
    expect((await ingest()).totals.updated).toBe(1);
    await setVodPrice(db.knex, '3.00', { actor: 'owner', address: '127.0.0.1', now: Date.now() });
    await vod('unpriced');
    expect((await ingest()).totals).toEqual({ added: 0, updated: 0, unchanged: 1 });
    expect(Number(await priceOf('unpriced'))).toBe(12);
  });

  it('announces the new generation through the publish hook, and reruns announce it again', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'ingest-pub-'));
    tempDirs.push(folder);
    await buildOne(folder, 'Announce');
    const announced: number[] = [];
    const publish = async (g: number) => {
      announced.push(g);
    };
    const mediaRoot = await tempMediaRoot();
    const a = await ingestFolder({ knex: db.knex, folder, mediaRoot, ffmpeg: null, publish });
    await ingestFolder({ knex: db.knex, folder, mediaRoot, ffmpeg: null, publish });
    expect(announced).toEqual([a.generation.after, a.generation.after]);
    const failing = await ingestFolder({
      knex: db.knex,
      folder,
      mediaRoot,
      ffmpeg: null,
      publish: () => Promise.reject(new Error('redis down')),
    });
    expect(failing.failed).toEqual([]);
    expect(failing.notes.join('\n')).toMatch(/could not announce catalog generation .*redis down/);
  });
});

async function buildOne(folder: string, updatename: string, more: Record<string, unknown> = {}, path = 'edit-me'): Promise<void> {
  const dir = join(folder, 'photos', path);
  await mkdir(dir, { recursive: true });
  await sharp({ create: { width: 40, height: 30, channels: 3, background: '#123456' } })
    .jpeg()
    .toFile(join(dir, 'one.jpg'));
  await writeFile(join(dir, 'meta.json'), JSON.stringify({ updatename, modelname: 'Model E5', datetoupload: '2025-06-01', ...more }));
}

describe('the catalog is the same on every backend', () => {
  it('has identical rows and ids', () => {
    const [firstBackend, ...others] = [...snapshots.values()];
    for (const other of others) expect(other).toEqual(firstBackend);
  });
});
