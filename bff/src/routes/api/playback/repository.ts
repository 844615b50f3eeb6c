import type { Knex } from 'knex';
import type { PlayableType } from '@media-site/contracts/playback-layout';
import { visibleOnly } from '../shared/visible';

export interface PlayableRow {
  id: number;
  path: string;
  updatename: string;
  modelname: string;
  prename: string;
  /** VODs only. */
  format?: number;
  datetoupload: string;
}

export const PLAYABLE_TABLE = { video: 'videos', vod: 'vods' } as const;

/** The video or VOD in `path`, unless it is unknown or taken down. */
export async function playableItem(knex: Knex, type: PlayableType, path: string): Promise<PlayableRow | undefined> {
  const table = PLAYABLE_TABLE[type];
  const columns = ['id', 'path', 'updatename', 'modelname', 'prename', 'datetoupload', ...(type === 'vod' ? ['format'] : [])];
  const row = await visibleOnly(knex(table).where({ path }), knex, table).first(columns);
  return row ? { ...row, id: Number(row.id), ...(type === 'vod' ? { format: Number(row.format) } : {}) } : undefined;
}

export interface EncodeState {
  status: 'queued' | 'running' | 'done' | 'failed';
  /** 0..1 */
  progress: number;
  manifest: string | null;
}

/** The item's encode job (media_jobs, written by the operator CLI's worker). */
export async function encodeState(knex: Knex, type: PlayableType, path: string): Promise<EncodeState | undefined> {
  const row = await knex('media_jobs').where({ content_type: type, path }).first('status', 'progress', 'manifest');
  return row ? { status: row.status, progress: Number(row.progress) / 1000, manifest: row.manifest ?? null } : undefined;
}
