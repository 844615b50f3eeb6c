import type { Knex } from 'knex';
import { modelInitial, searchText } from '@media-site/db';
import { replaceTags, tagsOf, type TaggedType } from '@media-site/db/content';
import { currentVodPrice } from '@media-site/db/payments';
import type { ScannedItem } from './scan';

export type Change = 'added' | 'updated' | 'unchanged';

type Db = Knex | Knex.Transaction;

const TABLES = {
  photos: { table: 'photosets', files: 'photoset_files', fk: 'photoset_id' },
  freephotos: { table: 'freephotosets', files: 'freephotoset_files', fk: 'freephotoset_id' },
  video: { table: 'videos', files: null, fk: null },
  vod: { table: 'vods', files: null, fk: null },
} as const;

const TAGGED: Record<Exclude<ScannedItem['type'], 'freephotos'>, TaggedType> = { photos: 'photoset', video: 'video', vod: 'vod' };

/** Matches MySQL's utf8mb4_unicode_ci closely enough: "émilie", "Emilie" and "EMILIE" are one model. */
export function modelKey(modelname: string): string {
  return modelname
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

export class IngestConflict extends Error {}

export interface ModelRef {
  id: number;
  modelname: string;
  thumbnail: string | null;
}

/** Models by modelKey, loaded once per ingest and kept current as models are added. */
export class ModelDirectory {
  private constructor(private readonly byKey: Map<string, ModelRef>) {}

  static async load(db: Db): Promise<ModelDirectory> {
    const rows: { id: number | string; modelname: string; thumbnail: string | null }[] = await db('models').select(
      'id',
      'modelname',
      'thumbnail',
    );
    return new ModelDirectory(
      new Map(rows.map((r) => [modelKey(r.modelname), { id: Number(r.id), modelname: r.modelname, thumbnail: r.thumbnail }])),
    );
  }

  find(modelname: string): ModelRef | undefined {
    return this.byKey.get(modelKey(modelname));
  }

  /** The model for `modelname`, created when new; its thumbnail is set once, when it has none. */
  async ensure(
    trx: Knex.Transaction,
    modelname: string,
    thumbnail: string | null,
  ): Promise<{ model: ModelRef; created: boolean; commit: () => void }> {
    const known = this.find(modelname);
    if (known) {
      if (known.thumbnail === null && thumbnail) await trx('models').where({ id: known.id }).update({ thumbnail });
      const next = { ...known, thumbnail: known.thumbnail ?? thumbnail };
      return { model: next, created: false, commit: () => this.byKey.set(modelKey(modelname), next) };
    }
    const [id] = await trx('models').insert({ modelname, initial: modelInitial(modelname), thumbnail });
    const model = { id: Number(id), modelname, thumbnail };
    return { model, created: true, commit: () => this.byKey.set(modelKey(modelname), model) };
  }
}

/**
 * The row as ingest would write it (columns of migrations/001_catalog, and a clip's duration of
 * 013 when ffprobe read one: an unread duration leaves the stored one, which the encoder may have set).
 */
function rowValues(item: ScannedItem, model: ModelRef | null, duration: number | null): Record<string, string | number | null> {
  if (item.type === 'freephotos') return { path: item.path, updatename: item.meta.updatename, datetoupload: item.meta.datetoupload };
  const modelname = model?.modelname ?? item.meta.modelname;
  const row: Record<string, string | number | null> = {
    path: item.path,
    updatename: item.meta.updatename,
    modelname,
    model_id: model?.id ?? null,
    datetoupload: item.meta.datetoupload,
    search_text: searchText(item.meta.updatename, modelname),
  };
  if (item.type === 'video' || item.type === 'vod') row.prename = item.meta.prename;
  if (item.type === 'vod')
    Object.assign(row, { format: item.meta.format, ...(item.meta.price === undefined ? {} : { price: item.meta.price }) });
  if ((item.type === 'video' || item.type === 'vod') && duration !== null && Math.round(duration) > 0) row.duration = Math.round(duration);
  return row;
}

// mysql2 returns decimals and big integers as strings; compare numbers as numbers.
function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' || typeof b === 'number') return Number(a) === Number(b);
  return a === b;
}

export interface WriteResult {
  change: Change;
  modelCreated: boolean;
}

/** Adds or updates one item's row and file list; `files` is null for videos, `duration` (seconds) for them only. */
export async function writeItem(
  trx: Knex.Transaction,
  models: ModelDirectory,
  item: ScannedItem,
  files: string[] | null,
  modelThumbnail: string | null,
  duration: number | null = null,
): Promise<{ result: WriteResult; commit: () => void }> {
  const spec = TABLES[item.type];
  let modelCreated = false;
  let commit = () => {};
  let model: ModelRef | null = null;
  if (item.type !== 'freephotos') {
    const ensured = await models.ensure(trx, item.meta.modelname, modelThumbnail);
    ({ model, commit } = ensured);
    modelCreated = ensured.created;
  }
  const values = rowValues(item, model, duration);
  const existing: Record<string, unknown> | undefined = await trx(spec.table).where({ path: item.path }).first();
  if (existing && existing.path !== item.path) {
    throw new IngestConflict(`path differs only in letter case from the existing ${item.type}/${String(existing.path)}`);
  }
  let change: Change;
  let id: number;
  if (!existing && item.type === 'vod' && item.meta.price === undefined) {
    const fallback = (await currentVodPrice(trx)).price;
    if (fallback === null) throw new IngestConflict('meta.json names no price, and no default VOD price is set (console: Prices)');
    values.price = fallback;
  }
  if (!existing) {
    [id] = (await trx(spec.table).insert(values)).map(Number) as [number];
    change = 'added';
  } else {
    id = Number(existing.id);
    const changed = Object.entries(values).some(([key, value]) => !sameValue(existing[key], value));
    if (changed) await trx(spec.table).where({ id }).update(values);
    change = changed ? 'updated' : 'unchanged';
  }
  if (spec.files && files) {
    const current: { filename: string }[] =
      change === 'added'
        ? []
        : await trx(spec.files)
            .where({ [spec.fk]: id })
            .orderBy('position')
            .select('filename');
    const same = current.length === files.length && current.every((row, i) => row.filename === files[i]);
    if (!same) {
      await trx(spec.files)
        .where({ [spec.fk]: id })
        .del();
      const rows = files.map((filename, i) => ({ [spec.fk]: id, position: i + 1, filename }));
      for (let i = 0; i < rows.length; i += 400) await trx(spec.files).insert(rows.slice(i, i + 400));
      if (change === 'unchanged') change = 'updated';
    }
  }
  // Only a meta.json that names its tags sets them ("tags": [] clears): one written before tags
  // existed, ingested again, keeps the tags an operator gave the item in the console.
  if (item.type !== 'freephotos' && item.meta.tags !== undefined) {
    const type = TAGGED[item.type];
    const current = change === 'added' ? [] : ((await tagsOf(trx, type, [id])).get(id) ?? []);
    if ([...item.meta.tags].sort().join('\n') !== [...current].sort().join('\n')) {
      await replaceTags(trx, type, id, item.meta.tags);
      if (change === 'unchanged') change = 'updated';
    }
  }
  return { result: { change, modelCreated }, commit };
}
