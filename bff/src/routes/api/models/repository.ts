import type { Knex } from 'knex';
import { contentRefOf } from '@media-site/db/content';
import type { ContentTable } from '../shared/content-page';
import { encodedColumn, photoCountColumn, visibleOnly } from '../shared/repository';

export interface ModelRow {
  id: number;
  modelname: string;
  /** The cover chosen at ingest (a thumbnail URL naming one of the model's items); never sent as it is: see modelCovers. */
  thumbnail: string | null;
}

/** The item whose thumbnail stands for a model. */
export interface Cover {
  table: ContentTable;
  path: string;
}

const COVER_TABLES: readonly ContentTable[] = ['photosets', 'videos', 'vods'];
const TABLE_OF_TYPE: Partial<Record<string, ContentTable>> = { photoset: 'photosets', video: 'videos', vod: 'vods' };

export interface ModelContentRow {
  id: number;
  path: string;
  updatename: string;
  datetoupload: string;
  /** Photo sets only. */
  photocount?: number | string;
  /** Videos and VODs only. */
  duration?: number | string | null;
  encoded?: number | string;
}

/**
 * The models of a letter, hidden ones included: the listing keeps those with a cover (modelCovers
 * finds one exactly when she has an item the catalog shows), so it costs no statement of its own.
 */
export function modelsByInitial(knex: Knex, initial: string): Promise<ModelRow[]> {
  return knex('models').where({ initial }).orderBy('modelname').orderBy('id').select('id', 'modelname', 'thumbnail');
}

/**
 * The model named `modelname` (the collation's match: callers compare exactly) if she has an item
 * the catalog shows (released, not taken down); a model whose items are all scheduled or taken down
 * is named nowhere until a release (which moves the catalog generation) shows one. One statement,
 * as for a name that is no model's: the model's unique name, then an EXISTS probe of each table's
 * model_id index that stops at her first visible item.
 */
export async function shownModelByName(knex: Knex, modelname: string): Promise<ModelRow | undefined> {
  const query = knex('models')
    .where({ modelname })
    .where((shown) => {
      for (const table of COVER_TABLES)
        shown.orWhereExists(
          visibleOnly(knex({ i: table }), knex, table, 'i.id')
            .where('i.model_id', knex.ref('models.id'))
            .select(knex.raw('1')),
        );
    });
  return (await query.first('id', 'modelname', 'thumbnail')) as ModelRow | undefined;
}

export function contentOfModel(knex: Knex, table: ContentTable, modelId: number, limit: number): Promise<ModelContentRow[]> {
  return visibleOnly(knex(table), knex, table)
    .where({ model_id: modelId })
    .orderBy('datetoupload', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .select([
      `${table}.id`,
      'path',
      'updatename',
      'datetoupload',
      ...(table === 'photosets'
        ? [photoCountColumn(knex, 'photosets', `${table}.id`)]
        : ['duration', encodedColumn(knex, table === 'vods' ? 'vod' : 'video', `${table}.path`)]),
    ]);
}

/** The model's own item the stored thumbnail names (`/members/photosthumbs/{path}/large.jpg`, a video's frame), if any. */
function chosenCover(thumbnail: string | null): Cover | undefined {
  const ref = thumbnail === null ? undefined : contentRefOf(thumbnail);
  const table = ref && TABLE_OF_TYPE[ref.type];
  return table && ref ? { table, path: ref.path } : undefined;
}

/**
 * Each model's cover, from released items only: the item its stored thumbnail names while that item
 * is visible (released, not taken down), else its first visible photo set, video or VOD (lowest id:
 * the first ingested, as ingest chooses), else none. The stored thumbnail may name an item scheduled
 * for later or taken down, and its folder is its title: it is never sent as it is. Usually one
 * query per table the chosen covers are in; the fallback, one query per table, only for models
 * whose chosen cover is hidden.
 */
export async function modelCovers(knex: Knex, models: readonly ModelRow[]): Promise<Map<number, Cover>> {
  const covers = new Map<number, Cover>();
  const chosen: Array<[number, Cover]> = [];
  for (const m of models) {
    const cover = chosenCover(m.thumbnail);
    if (cover) chosen.push([Number(m.id), cover]);
  }
  for (const table of COVER_TABLES) {
    const wanted = chosen.filter(([, c]) => c.table === table);
    if (wanted.length === 0) continue;
    const rows: Array<{ model_id: number | string; path: string }> = await visibleOnly(knex(table), knex, table)
      .whereIn(
        'path',
        wanted.map(([, c]) => c.path),
      )
      .whereIn(
        'model_id',
        wanted.map(([id]) => id),
      )
      .select('model_id', 'path');
    const found = new Set(rows.map((r) => `${Number(r.model_id)}\n${r.path}`));
    for (const [id, cover] of wanted) if (found.has(`${id}\n${cover.path}`)) covers.set(id, cover);
  }
  for (const table of COVER_TABLES) {
    const missing = models.map((m) => Number(m.id)).filter((id) => !covers.has(id));
    if (missing.length === 0) break;
    const first = visibleOnly(knex(table), knex, table).whereIn('model_id', missing).groupBy('model_id').min({ id: 'id' });
    const rows: Array<{ model_id: number | string; path: string }> = await knex({ t: table })
      .join(first.as('f'), 'f.id', 't.id')
      .select('t.model_id', 't.path');
    for (const r of rows) covers.set(Number(r.model_id), { table, path: r.path });
  }
  return covers;
}
