import { copyFile, mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const SAMPLE_CLIP = fileURLToPath(new URL('../../../fixtures/sample.mp4', import.meta.url));

async function jpeg(file: string, colour: string, width = 240, height = 160): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await sharp({ create: { width, height, channels: 3, background: colour } })
    .jpeg({ quality: 70 })
    .toFile(file);
}

async function json(file: string, value: unknown): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(value, null, 2));
}

async function clip(file: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await copyFile(SAMPLE_CLIP, file);
}

/** A meta.json's fields: the three every item has, then the type's own. */
function meta(updatename: string, modelname: string, datetoupload: string, more: Record<string, unknown> = {}) {
  return { updatename, modelname, datetoupload, ...more };
}

/** A video or VOD item: its clips (one, unless the item is wrong) beside its meta.json. */
async function clipItem(dir: string, fields: Record<string, unknown>, clips = ['a.mp4']): Promise<void> {
  for (const name of clips) await clip(join(dir, name));
  await json(join(dir, 'meta.json'), fields);
}

/** Items the ingest must accept, by type and path. */
export const VALID_ITEMS = {
  photos: ['set-alpha', 'set-beta'],
  freephotos: ['free-one'],
  video: ['clip-hd', 'clip-plain'],
  vod: ['vod-new', 'vod-old'],
} as const;

/** Where the fixture plants a problem, and a word the reason must contain. */
export const EXPECTED_SKIPS: [where: string, reason: RegExp][] = [
  ['extras', /unknown type/],
  ['README.txt', /not a content directory/],
  ['photos/no-meta', /missing meta\.json/],
  ['photos/bad-date', /datetoupload: bad date/],
  ['photos/bad name', /unsafe name/],
  ['photos/empty-set', /no images/],
  ['photos/set-alpha/notes.txt', /not an image file/],
  ['photos/set-alpha/linked.jpg', /symbolic link/],
  ['video/two-files', /exactly one video file, found 2/],
  ['video/bad-json', /not valid JSON/],
  ['vod/no-price', /price/],
  ['vod/slash-prename', /unsafe name/],
  ['videothumbs/orphan', /no matching video\/orphan item/],
];

/** A folder in the ingest layout with valid items and one of each kind of problem. */
export async function buildIngestFolder(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'ingest-src-'));
  const p = (...parts: string[]) => join(root, ...parts);

  for (const [i, name] of ['a1.jpg', 'a2.jpg', 'a10.jpg'].entries()) await jpeg(p('photos/set-alpha', name), `hsl(${i * 40}, 60%, 40%)`);
  await json(p('photos/set-alpha/meta.json'), meta('Alpha Morning', 'Model A1', '2025-03-14'));
  await writeFile(p('photos/set-alpha/notes.txt'), 'not an image');
  await symlink(p('photos/set-alpha/a1.jpg'), p('photos/set-alpha/linked.jpg'));
  await jpeg(p('photos/set-beta/b1.png'), '#224466');
  await json(p('photos/set-beta/meta.json'), meta('Beta Granite', 'model a1', '2024-11-02'));
  // A ready-made cover, which ingest copies instead of generating one.
  await jpeg(p('photosthumbs/set-beta/large.jpg'), '#ff0000', 64, 64);

  for (const name of ['f1.jpg', 'f2.jpg']) await jpeg(p('freephotos/free-one', name), '#446622');
  await json(p('freephotos/free-one/meta.json'), { updatename: 'Free Preview One', datetoupload: '2025-01-15' });

  const harbourRun = meta('Harbour Run', 'Émilie B', '2025-05-01', { prename: 'V001_EmilieB_HarbourRun_HD' });
  await clipItem(p('video/clip-hd'), harbourRun, ['source.mp4']);
  const quietHall = meta('Quiet Hall', 'Model C3', '2023-08-19', { prename: 'V002_ModelC3_QuietHall' });
  await clipItem(p('video/clip-plain'), quietHall, ['source.mp4']);

  const summitDay = meta('Summit Day', 'Model A1', '2024-01-28', { prename: 'ModelA1_SummitDay.wmv', format: 'mp4', price: 14.99 });
  await clipItem(p('vod/vod-new'), summitDay, ['take.mp4']);
  const oldQuarry = meta('Old Quarry', 'Model D4', '2023-02-10', { prename: 'ignored-before-cutoff', format: 1, price: 9.99 });
  await clipItem(p('vod/vod-old'), oldQuarry, ['take.mp4']);

  await writeFile(p('README.txt'), 'operator notes');
  await mkdir(p('extras/whatever'), { recursive: true });
  await jpeg(p('photos/no-meta/x.jpg'), '#000000');
  await jpeg(p('photos/bad-date/x.jpg'), '#000000');
  await json(p('photos/bad-date/meta.json'), meta('Bad Date', 'Model A1', '2025-02-30'));
  await jpeg(p('photos/bad name/x.jpg'), '#000000');
  await json(p('photos/bad name/meta.json'), meta('Bad Name', 'Model A1', '2025-02-01'));
  await json(p('photos/empty-set/meta.json'), meta('Empty', 'Model A1', '2025-02-01'));
  await clipItem(p('video/two-files'), meta('Two', 'Model A1', '2025-02-01', { prename: 'Two' }), ['a.mp4', 'b.mp4']);
  await clip(p('video/bad-json/a.mp4'));
  await writeFile(p('video/bad-json/meta.json'), '{ "updatename": ');
  await clipItem(p('vod/no-price'), meta('No Price', 'Model A1', '2025-02-01', { prename: 'NoPrice', format: 0 }));
  await clipItem(p('vod/slash-prename'), meta('Slash', 'Model A1', '2025-02-01', { prename: '../escape', format: 0, price: 5 }));
  await jpeg(p('videothumbs/orphan/orphan_02.jpg'), '#000000');
  return root;
}
