import type { Knex } from 'knex';
import type { ContentTable } from '../shared/content-page';
import { encodedColumn, photoCountColumn } from '../shared/facts';
import { visibleOnly } from '../shared/visible';

export interface ModelRow {
  id: number;
  modelname: string;
  thumbnail: string | null;
}

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

export function modelsByInitial(knex: Knex, initial: string): Promise<ModelRow[]> {
  return knex('models').where({ initial }).orderBy('modelname').orderBy('id').select('id', 'modelname', 'thumbnail');
}

export async function modelByName(knex: Knex, modelname: string): Promise<ModelRow | undefined> {
  return (await knex('models').where({ modelname }).first('id', 'modelname', 'thumbnail')) as ModelRow | undefined;
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
