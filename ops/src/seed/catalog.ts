import { modelInitial, searchText } from '@media-site/db';
import { DEMO_TAGS, EMPTY_MODEL_NAMES, MODEL_NAMES, TITLE_ADJECTIVES, TITLE_NOUNS, WILDCARD_TITLES } from './names';
import { createPrng, type Prng } from './prng';
import { SAMPLE_CLIP_SECONDS } from './sample-video';
import { camelName, slugify } from './slug';

export interface ModelRow {
  id: number;
  modelname: string;
  initial: string;
  thumbnail: string | null;
}

interface ContentRow {
  id: number;
  path: string;
  updatename: string;
  modelname: string;
  model_id: number;
  datetoupload: string;
  search_text: string;
}

export interface PhotosetRow extends ContentRow {
  files: string[];
}

export interface FreePhotosetRow {
  id: number;
  path: string;
  updatename: string;
  datetoupload: string;
  files: string[];
}

export interface VideoRow extends ContentRow {
  prename: string;
  /** Whole seconds: the sample clip the media tree puts there (the encoder corrects it if it differs). */
  duration: number;
}

export interface VodRow extends ContentRow {
  prename: string;
  duration: number;
  format: number;
  price: number;
}

export interface ContentTagRow {
  content_type: 'photoset' | 'video' | 'vod';
  content_id: number;
  tag: string;
}

export interface DemoCatalog {
  models: ModelRow[];
  photosets: PhotosetRow[];
  freephotosets: FreePhotosetRow[];
  videos: VideoRow[];
  vods: VodRow[];
  /** 1–4 per photo set, video and VOD. */
  tags: ContentTagRow[];
}

export const DEMO_COUNTS = { photosets: 48, videos: 44, vods: 44, freephotosets: 3 } as const;
export const VOD_PRICES: readonly number[] = [9.99, 14.99, 24.99];

const DAY_MS = 86_400_000;
const FIRST_DAY = Date.UTC(2019, 0, 1);
// Ends before the demo was written, so no row is dated in the future.
const LAST_DAY = Date.UTC(2026, 9, 31);

export function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Dates over 2019..Oct 2026; every fifth row repeats the previous date so the id tie-break matters. */
function dateSeries(prng: Prng, count: number): string[] {
  const span = (LAST_DAY - FIRST_DAY) / DAY_MS;
  const dates: string[] = [];
  for (let i = 0; i < count; i++) {
    const previous = dates[i - 1];
    dates.push(i % 5 === 4 && previous ? previous : isoDate(FIRST_DAY + prng.int(0, span) * DAY_MS));
  }
  return dates;
}

function titleSeries(prng: Prng, count: number): string[] {
  return Array.from({ length: count }, () => `${prng.pick(TITLE_ADJECTIVES)} ${prng.pick(TITLE_NOUNS)}`);
}

/** path = slug(title)-slug(model), with a counter when that is taken in the same table. */
function uniquePath(taken: Set<string>, title: string, modelname: string): string {
  const base = `${slugify(title)}-${slugify(modelname)}`;
  let path = base;
  for (let n = 2; taken.has(path); n++) path = `${base}-${n}`;
  taken.add(path);
  return path;
}

function imageNames(path: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${path}_${String(i + 1).padStart(2, '0')}.jpg`);
}

/** Every download-name branch in turn: ends 001.mp4, 001.mpg, 001.wmv, contains HD, neither. */
export function videoPrename(index: number, base: string): string {
  switch (index % 5) {
    case 0:
      return `${base}_001.mp4`;
    case 1:
      return `${base}_001.mpg`;
    case 2:
      return `${base}_001.wmv`;
    case 3:
      return `${base}_HD`;
    default:
      return base;
  }
}

function vodPrename(index: number, base: string): string {
  return index % 3 === 0 ? `${base}.mp4` : index % 3 === 1 ? `${base}.wmv` : base;
}

function contentRows(prng: Prng, count: number, models: ModelRow[], specials: Record<number, string>): ContentRow[] {
  const titles = titleSeries(prng, count);
  const dates = dateSeries(prng, count);
  const taken = new Set<string>();
  return titles.map((generated, i) => {
    const model = models[i % models.length];
    if (!model) throw new Error('no models');
    const updatename = specials[i] ?? generated;
    return {
      id: i + 1,
      path: uniquePath(taken, updatename, model.modelname),
      updatename,
      modelname: model.modelname,
      model_id: model.id,
      datetoupload: dates[i] ?? '2019-01-01',
      search_text: searchText(updatename, model.modelname),
    };
  });
}

/**
 * `count` (at most 4) tags of DEMO_TAGS for the item at `index`, none twice (steps of 3 over 12
 * words), from a place in the list that moves by 5 per item: every word is used, in changing company.
 */
export function tagsFor(index: number, count: number, offset = 0): string[] {
  return Array.from({ length: count }, (_, k) => DEMO_TAGS[(index * 5 + offset + k * 3) % DEMO_TAGS.length] ?? 'studio');
}

/** 1–4 tags per item, each type starting elsewhere in the list, so the search's tag counts differ by type. */
function demoTagRows(type: ContentTagRow['content_type'], offset: number, items: ReadonlyArray<{ id: number }>): ContentTagRow[] {
  return items.flatMap((item, i) =>
    tagsFor(i, 1 + ((i * 7 + offset) % 4), offset).map((tag) => ({ content_type: type, content_id: item.id, tag })),
  );
}

/** The demo catalog: the same rows, ids and file names on every call. */
export function buildDemoCatalog(): DemoCatalog {
  const prng = createPrng(20240128);
  const models: ModelRow[] = [...MODEL_NAMES, ...EMPTY_MODEL_NAMES].map((modelname, i) => ({
    id: i + 1,
    modelname,
    initial: modelInitial(modelname),
    thumbnail: null,
  }));
  const withContent = models.slice(0, MODEL_NAMES.length);

  const photosets = contentRows(prng, DEMO_COUNTS.photosets, withContent, {
    3: WILDCARD_TITLES.percent,
    7: WILDCARD_TITLES.underscore,
  }).map((row) => ({ ...row, files: imageNames(row.path, prng.int(6, 12)) }));

  const videos = contentRows(prng, DEMO_COUNTS.videos, withContent, { 5: WILDCARD_TITLES.percent }).map((row, i) => ({
    ...row,
    prename: videoPrename(i, `V${String(row.id).padStart(3, '0')}_${camelName(row.modelname)}_${camelName(row.updatename)}`),
    duration: SAMPLE_CLIP_SECONDS,
  }));

  const vods = contentRows(prng, DEMO_COUNTS.vods, withContent, { 2: WILDCARD_TITLES.underscore }).map((row, i) => ({
    ...row,
    // One VOD exactly on the naming cutoff, so the "on or after" edge is in the data.
    datetoupload: i === 0 ? '2024-01-28' : row.datetoupload,
    prename: vodPrename(i, `${camelName(row.modelname)}_${camelName(row.updatename)}`),
    format: prng.next() < 0.5 ? 0 : 1,
    price: VOD_PRICES[i % VOD_PRICES.length] ?? 14.99,
    duration: SAMPLE_CLIP_SECONDS,
  }));

  for (const model of models) {
    const cover = photosets.find((p) => p.model_id === model.id);
    model.thumbnail = cover ? `/members/photosthumbs/${cover.path}/large.jpg` : null;
  }

  const freephotosets = ['Free Preview Studio', 'Free Preview Coastal', 'Free Preview Granite'].map((updatename, i) => {
    const path = slugify(updatename);
    return { id: i + 1, path, updatename, datetoupload: isoDate(Date.UTC(2025, i * 3, 15)), files: imageNames(path, 8) };
  });

  const tags = [...demoTagRows('photoset', 0, photosets), ...demoTagRows('video', 4, videos), ...demoTagRows('vod', 8, vods)];

  return { models, photosets, freephotosets, videos, vods, tags };
}
