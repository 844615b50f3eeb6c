import type { Knex } from 'knex';
import type { SavedType } from '@media-site/contracts/saved-api';
import { visibleOnly } from '../shared/repository';

// "My list" (saved_items, migration 028): only this route folder reads or writes it.

export const SAVED_TABLE = { photo: 'photosets', video: 'videos', vod: 'vods' } as const;
export type SavedContentType = keyof typeof SAVED_TABLE;

export interface SavedRow {
  type: SavedType;
  contentId: number;
  savedAt: number;
}

/** The member's saved items, newest first (index member_id, saved_at). */
export async function savedRows(knex: Knex, memberId: number, limit: number): Promise<SavedRow[]> {
  const rows: Array<Record<string, unknown>> = await knex('saved_items')
    .where({ member_id: memberId })
    .orderBy('saved_at', 'desc')
    .orderBy('content_id', 'desc')
    .limit(limit)
    .select('content_type', 'content_id', 'saved_at');
  return rows.map((r) => ({ type: r.content_type as SavedType, contentId: Number(r.content_id), savedAt: Number(r.saved_at) }));
}

export async function savedCount(knex: Knex, memberId: number): Promise<number> {
  const row = await knex('saved_items').where({ member_id: memberId }).count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

export async function savedAt(knex: Knex, memberId: number, type: SavedType, contentId: number): Promise<number | undefined> {
  const row = await knex('saved_items').where({ member_id: memberId, content_type: type, content_id: contentId }).first('saved_at');
  return row ? Number(row.saved_at) : undefined;
}

/** Saves the item; saving it again keeps its first time (a double click is one save). */
export async function insertSaved(knex: Knex, memberId: number, type: SavedType, contentId: number, now: number): Promise<void> {
  await knex('saved_items')
    .insert({ member_id: memberId, content_type: type, content_id: contentId, saved_at: now })
    .onConflict(['member_id', 'content_type', 'content_id'])
    .ignore();
}

export async function deleteSaved(knex: Knex, memberId: number, type: SavedType, contentId: number): Promise<void> {
  await knex('saved_items').where({ member_id: memberId, content_type: type, content_id: contentId }).delete();
}

export interface SavedContent {
  id: number;
  path: string;
  updatename: string;
  modelname: string;
}

const toContent = (r: Record<string, unknown>): SavedContent => ({
  id: Number(r.id),
  path: String(r.path),
  updatename: String(r.updatename),
  modelname: String(r.modelname),
});

/** The visible (released, not taken down) items of one type among `ids`. */
export async function visibleContentByIds(knex: Knex, type: SavedContentType, ids: number[]): Promise<Map<number, SavedContent>> {
  if (!ids.length) return new Map();
  const table = SAVED_TABLE[type];
  const rows: Array<Record<string, unknown>> = await visibleOnly(knex(table).whereIn('id', ids), knex, table).select(
    'id',
    'path',
    'updatename',
    'modelname',
  );
  return new Map(rows.map((r) => [Number(r.id), toContent(r)]));
}

/** The item in `path` when the catalog shows it; `visible: false` also finds a hidden one (to remove it from a list). */
export async function contentByPath(knex: Knex, type: SavedContentType, path: string, visible = true): Promise<SavedContent | undefined> {
  const table = SAVED_TABLE[type];
  const query = knex(table).where({ path });
  const row = await (visible ? visibleOnly(query, knex, table) : query).first('id', 'path', 'updatename', 'modelname');
  return row ? toContent(row) : undefined;
}

export interface SavedModel {
  id: number;
  modelname: string;
  thumbnail: string | null;
}

export async function modelsByIds(knex: Knex, ids: number[]): Promise<SavedModel[]> {
  if (!ids.length) return [];
  const rows: Array<Record<string, unknown>> = await knex('models').whereIn('id', ids).select('id', 'modelname', 'thumbnail');
  return rows.map((r) => ({ id: Number(r.id), modelname: String(r.modelname), thumbnail: (r.thumbnail as string | null) ?? null }));
}

/** Any model of that exact name, shown or not (to remove her from a list). */
export async function modelByName(knex: Knex, modelname: string): Promise<SavedModel | undefined> {
  const row = await knex('models').where({ modelname }).first('id', 'modelname', 'thumbnail');
  return row && row.modelname === modelname ? { id: Number(row.id), modelname, thumbnail: row.thumbnail ?? null } : undefined;
}

export interface ReleaseRow extends SavedContent {
  type: SavedContentType;
  datetoupload: string;
}

/** The newest visible items of these models, each type's newest `limit` (the caller merges them). */
export async function newestOfModels(knex: Knex, modelIds: number[], limit: number): Promise<ReleaseRow[]> {
  if (!modelIds.length) return [];
  const perType = await Promise.all(
    (Object.keys(SAVED_TABLE) as SavedContentType[]).map(async (type) => {
      const table = SAVED_TABLE[type];
      const rows: Array<Record<string, unknown>> = await visibleOnly(knex(table).whereIn('model_id', modelIds), knex, table)
        .orderBy('datetoupload', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .select('id', 'path', 'updatename', 'modelname', 'datetoupload');
      return rows.map((r): ReleaseRow => ({ ...toContent(r), type, datetoupload: String(r.datetoupload) }));
    }),
  );
  return perType.flat();
}
