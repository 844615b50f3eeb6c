import type { Knex } from 'knex';
import { bumpGeneration, modelInitial, searchText } from '@media-site/db';
import { isoDate, tagsFor, videoPrename, VOD_PRICES } from './catalog';
import { TITLE_ADJECTIVES, TITLE_NOUNS } from './names';
import { createPrng, hashString, type Prng } from './prng';
import { camelName, slugify } from './slug';
import { insertInChunks, wipeCatalog } from './tables';

export interface ScaleSummary {
  models: number;
  photosets: number;
  videos: number;
  vods: number;
  tags: number;
  generation: number;
}

const TAGS_PER_ITEM = 2;
const TAGGED = { photosets: ['photoset', 0], videos: ['video', 4], vods: ['vod', 8] } as const;

const SYLLABLES = [
  'ka',
  'ri',
  'lo',
  'ven',
  'sa',
  'mi',
  'tor',
  'el',
  'da',
  'ne',
  'qui',
  'zo',
  'bel',
  'ha',
  'ju',
  'wy',
  'xa',
  'fi',
  'go',
  'pe',
  'ul',
  'or',
  'is',
  'ya',
  'an',
  'ce',
];
const EXTRA_WORDS = ['Edition', 'Part', 'Take', 'Cut', 'Set', 'Series', 'Day', 'Night', 'Round', 'Chapter'];
const FIRST_DAY = Date.UTC(2005, 0, 1);
const DAYS = (Date.UTC(2026, 9, 31) - FIRST_DAY) / 86_400_000;

// Each row is a pure function of (table, id), so a model can name its cover photoset's path
// without holding the whole table in memory, and every run gives the same rows.
function rowPrng(table: string, id: number): Prng {
  return createPrng(hashString(`${table}:${id}`));
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

export function scaleModelName(id: number): string {
  const prng = rowPrng('models', id);
  const first = capitalise(prng.pick(SYLLABLES) + prng.pick(SYLLABLES) + prng.pick(SYLLABLES));
  return `${first} ${String.fromCharCode(65 + prng.int(0, 25))}${id}`;
}

function content(table: string, id: number, modelCount: number) {
  const prng = rowPrng(table, id);
  const updatename = `${prng.pick(TITLE_ADJECTIVES)} ${prng.pick(TITLE_NOUNS)} ${prng.pick(EXTRA_WORDS)} ${prng.int(1, 99)}`;
  const modelId = ((id - 1) % modelCount) + 1;
  const modelname = scaleModelName(modelId);
  return {
    prng,
    row: {
      id,
      path: `${slugify(updatename)}-${id}`,
      updatename,
      modelname,
      model_id: modelId,
      datetoupload: isoDate(FIRST_DAY + prng.int(0, DAYS) * 86_400_000),
      search_text: searchText(updatename, modelname),
    },
  };
}

type Build = (id: number) => object | object[];

function builders(modelCount: number): Record<'photosets' | 'videos' | 'vods', Build> {
  return {
    photosets: (id) => content('photosets', id, modelCount).row,
    // Running times from 1 minute to 1 hour, so the search's length filters split the catalog.
    videos: (id) => {
      const { prng, row } = content('videos', id, modelCount);
      return { ...row, prename: videoPrename(id, `S${id}_${camelName(row.updatename)}`), duration: prng.int(60, 3600) };
    },
    vods: (id) => {
      const { prng, row } = content('vods', id, modelCount);
      return {
        ...row,
        prename: `S${id}_${camelName(row.updatename)}.mp4`,
        format: prng.int(0, 1),
        price: VOD_PRICES[id % VOD_PRICES.length],
        duration: prng.int(60, 3600),
      };
    },
  };
}

/** Rows for ids 1..count, built and inserted 10,000 ids at a time (`build` may give several rows per id). */
async function insertGenerated(trx: Knex.Transaction, table: string, count: number, build: Build): Promise<void> {
  const step = 10_000;
  for (let start = 1; start <= count; start += step) {
    const rows: object[] = [];
    for (let id = start; id < Math.min(start + step, count + 1); id++) {
      const built = build(id);
      if (Array.isArray(built)) rows.push(...built);
      else rows.push(built);
    }
    await insertInChunks(trx, table, rows);
  }
}

/**
 * Replaces the catalog with `rows` photosets, videos and VODs and rows/10 models (rows only, no
 * media: this is for benchmarks), in one transaction, and bumps the generation.
 */
export async function seedScale(knex: Knex, rows: number, log: (msg: string) => void = () => {}): Promise<ScaleSummary> {
  const modelCount = Math.max(1, Math.floor(rows / 10));
  return knex.transaction(async (trx) => {
    // Emptied with key checks on, so references from other tables (a purchase's vod_id) get their
    // ON DELETE actions.
    await wipeCatalog(trx);
    log('catalog emptied');
    const mysql = trx.client.config.client === 'mysql2';
    // The generated rows are consistent by construction, so skip per-row key checks inside this
    // transaction's connection; they are switched back on before it returns to the pool.
    if (mysql) await trx.raw('SET SESSION foreign_key_checks = 0, unique_checks = 0');
    try {
      return await fill(trx, rows, modelCount, log);
    } finally {
      if (mysql) await trx.raw('SET SESSION foreign_key_checks = 1, unique_checks = 1');
    }
  });
}

async function fill(trx: Knex.Transaction, rows: number, modelCount: number, log: (msg: string) => void): Promise<ScaleSummary> {
  const build = builders(modelCount);
  await insertGenerated(trx, 'models', modelCount, (id) => {
    const modelname = scaleModelName(id);
    // Photoset `id` belongs to model `id` (ids are dealt round-robin), so it is their cover.
    const cover = id <= rows ? content('photosets', id, modelCount).row.path : null;
    return { id, modelname, initial: modelInitial(modelname), thumbnail: cover && `/members/photosthumbs/${cover}/large.jpg` };
  });
  log(`models: ${modelCount}`);
  for (const table of ['photosets', 'videos', 'vods'] as const) {
    await insertGenerated(trx, table, rows, build[table]);
    // The demo's vocabulary, two a row, each type starting elsewhere in it (a pure function of the id).
    const [type, offset] = TAGGED[table];
    await insertGenerated(trx, 'content_tags', rows, (id) =>
      tagsFor(id, TAGS_PER_ITEM, offset).map((tag) => ({ content_type: type, content_id: id, tag })),
    );
    log(`${table}: ${rows}, with ${TAGS_PER_ITEM} tags each`);
  }
  const generation = await bumpGeneration(trx);
  return { models: modelCount, photosets: rows, videos: rows, vods: rows, tags: rows * 3 * TAGS_PER_ITEM, generation };
}
