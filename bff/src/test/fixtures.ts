import type { Knex } from 'knex';
import { modelInitial, searchText } from '@media-site/db';
import { encodeJobRow } from '@media-site/db/testing';
import type { ContentRow } from '../routes/api/shared/content-page';

/** A content row as the listings read it (shared/content-page.ts), with its model's id. */
export interface ContentFixture extends ContentRow {
  model_id: number;
}
/** A photo set with how many files it holds (the API's `photocount`). */
export interface PhotoFixture extends ContentFixture {
  photocount: number;
}
export interface VideoFixture extends ContentFixture {
  prename: string;
  /** Whole seconds; null: not measured (migration 013). */
  duration: number | null;
  /** The thumbnails track once encoded (a media_jobs row with a manifest); null otherwise. */
  preview: string | null;
}
export interface VodFixture extends VideoFixture {
  format: number;
  price: number;
}

export const MODEL_NAMES = ['Anna Alpha', 'Alice Beta', 'Bella Gamma', 'Émilie Ñoño', 'Zara Delta'] as const;

export const PHOTO_COUNT = 23;
export const VIDEO_COUNT = 12;
export const VOD_COUNT = 26;

const pad = (n: number) => String(n).padStart(2, '0');

// Names repeat (i and i + 20 share one) so the id tie-break is exercised; dates repeat for the same reason.
// All listing titles are plain ASCII with one capitalisation so every backend's collation agrees.
function baseRows(prefix: string, count: number, modelIds: number[]) {
  return Array.from({ length: count }, (_, k) => {
    const i = k + 1;
    const modelIndex = i % 4;
    return {
      path: `${prefix}-set-${pad(i)}`,
      updatename: `${prefix} title ${pad((i * 7) % 20)}`,
      modelname: MODEL_NAMES[modelIndex]!,
      model_id: modelIds[modelIndex]!,
      datetoupload: `2024-0${1 + (i % 3)}-${pad(1 + ((i * 5) % 10))}`,
    };
  });
}

/**
 * Search cases: LIKE metacharacters that must match literally, plus look-alikes that must not. The
 * numbers fix their listing order: collations disagree on where punctuation sorts.
 */
export const SEARCH_SETS = [
  { path: 'special-percent', updatename: 'Zz 1 100% Real' },
  { path: 'special-percent-lookalike', updatename: 'Zz 2 1000 Real' },
  { path: 'special-underscore', updatename: 'Zz 3 snake_case' },
  { path: 'special-underscore-lookalike', updatename: 'Zz 4 snakexcase' },
  { path: 'special-backslash', updatename: 'Zz 5 back\\slash' },
  { path: 'special-backslash-lookalike', updatename: 'Zz 6 backslash' },
] as const;

async function insertContent<T extends Record<string, unknown>>(
  knex: Knex,
  table: string,
  rows: Array<T & { path: string; updatename: string; modelname: string }>,
): Promise<Array<T & { id: number }>> {
  for (const row of rows) {
    await knex(table).insert({ ...row, search_text: searchText(row.updatename, row.modelname) });
  }
  const ids = new Map((await knex(table).select('id', 'path')).map((r: { id: number; path: string }) => [r.path, Number(r.id)]));
  return rows.map((r) => ({ ...r, id: ids.get(r.path)! }));
}

export interface Catalog {
  models: Array<{ id: number; modelname: string; thumbnail: string }>;
  photos: PhotoFixture[];
  videos: VideoFixture[];
  vods: VodFixture[];
  specials: PhotoFixture[];
}

/** Deterministic catalog rows; a test computes the expected order from these with plain sorts. */
export async function insertCatalog(knex: Knex): Promise<Catalog> {
  for (const modelname of MODEL_NAMES) await knex('models').insert({ modelname, initial: modelInitial(modelname), thumbnail: null });
  const modelIds = MODEL_NAMES.map(() => 0);
  for (const m of await knex('models').select('id', 'modelname')) modelIds[MODEL_NAMES.indexOf(m.modelname)] = Number(m.id);

  const photos = await insertContent(knex, 'photosets', baseRows('Photo', PHOTO_COUNT, modelIds));
  const videos = await insertContent(
    knex,
    'videos',
    baseRows('Video', VIDEO_COUNT, modelIds).map((r, k) => ({
      ...r,
      prename: k % 2 ? `clip${k}HD` : `clip${k}`,
      // Some unknown; the longest past an hour.
      duration: k % 4 === 3 ? null : 30 + k * 397,
    })),
  );
  const vods = await insertContent(
    knex,
    'vods',
    baseRows('Vod', VOD_COUNT, modelIds).map((r, k) => ({
      ...r,
      prename: `vod${k}.mov`,
      format: k % 2,
      price: Math.round((9.99 + k) * 100) / 100,
      duration: k % 5 === 4 ? null : 600 + k * 331,
    })),
  );
  const specials = await insertContent(
    knex,
    'photosets',
    SEARCH_SETS.map((s) => ({ ...s, modelname: 'Zara Delta', model_id: modelIds[4]!, datetoupload: '2020-01-01' })),
  );
  // Each model's chosen cover is her newest photo set (not her first, the fallback: so tests see the choice kept).
  for (const id of modelIds) {
    const cover = [...photos, ...specials].filter((p) => p.model_id === id).at(-1)!;
    await knex('models')
      .where({ id })
      .update({ thumbnail: `/members/photosthumbs/${cover.path}/large.jpg` });
  }
  const models = (await knex('models').select('id', 'modelname', 'thumbnail')).map((m) => ({ ...m, id: Number(m.id) }));

  const first = photos[0]!;
  for (const [position, filename] of [
    [3, 'c.jpg'],
    [1, 'a.jpg'],
    [2, 'b.jpg'],
  ] as const) {
    await knex('photoset_files').insert({ photoset_id: first.id, position, filename });
  }
  await knex('freephotosets').insert({ path: 'free-01', updatename: 'Free one', datetoupload: '2024-01-01' });
  const free = await knex('freephotosets').where({ path: 'free-01' }).first('id');
  for (const [position, filename] of [
    [2, 'y.jpg'],
    [1, 'x.jpg'],
  ] as const) {
    await knex('freephotoset_files').insert({ freephotoset_id: free.id, position, filename });
  }
  // The first video and VOD are encoded (their jobs have a manifest); a queued job is not.
  await knex('media_jobs').insert([
    encodeJobRow('video', videos[0]!.path, '{}'),
    encodeJobRow('vod', vods[0]!.path, '{}'),
    encodeJobRow('video', videos[1]!.path, null),
  ]);
  const previews = <T extends { path: string }>(type: string, rows: T[]) =>
    rows.map((r, k) => ({ ...r, preview: k === 0 ? `/members/${type}previews/${r.path}/thumbs.vtt` : null }));
  const counted = (rows: ContentFixture[]) => rows.map((r) => ({ ...r, photocount: r.id === first.id ? 3 : 0 }));
  return {
    models,
    photos: counted([...photos, ...specials]),
    videos: previews('video', videos),
    vods: previews('vod', vods),
    specials: counted(specials),
  };
}

export const byAlpha = (a: ContentFixture, b: ContentFixture) =>
  a.updatename < b.updatename ? -1 : a.updatename > b.updatename ? 1 : a.id - b.id;
export const byDate = (a: ContentFixture, b: ContentFixture) =>
  a.datetoupload < b.datetoupload ? 1 : a.datetoupload > b.datetoupload ? -1 : b.id - a.id;
