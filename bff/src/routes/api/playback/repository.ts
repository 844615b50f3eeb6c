import type { Knex } from 'knex';
import type { PlayableType } from '@media-site/contracts/playback-layout';
import { visibleOnly } from '../shared/repository';

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

// Where each member stopped (playback_positions). The playback view shows it and /api/positions
// (../positions/) reads and writes it: it lives here so positions builds on playback, never the reverse.

export interface Position {
  type: PlayableType;
  contentId: number;
  positionMs: number;
  durationMs: number | null;
  updatedAt: number;
}

function toPosition(r: Record<string, unknown>): Position {
  return {
    type: r.content_type as PlayableType,
    contentId: Number(r.content_id),
    positionMs: Number(r.position_ms),
    durationMs: r.duration_ms === null || r.duration_ms === undefined ? null : Number(r.duration_ms),
    updatedAt: Number(r.updated_at),
  };
}

export async function positionOf(knex: Knex, memberId: number, type: PlayableType, contentId: number): Promise<Position | undefined> {
  const row = await knex('playback_positions').where({ member_id: memberId, content_type: type, content_id: contentId }).first();
  return row ? toPosition(row) : undefined;
}

export async function savePosition(knex: Knex, memberId: number, p: Omit<Position, 'updatedAt'>, now: number): Promise<Position> {
  const row = {
    member_id: memberId,
    content_type: p.type,
    content_id: p.contentId,
    position_ms: p.positionMs,
    duration_ms: p.durationMs,
    updated_at: now,
  };
  await knex('playback_positions')
    .insert(row)
    .onConflict(['member_id', 'content_type', 'content_id'])
    .merge(['position_ms', 'duration_ms', 'updated_at']);
  return { ...p, updatedAt: now };
}

export async function deletePosition(knex: Knex, memberId: number, type: PlayableType, contentId: number): Promise<void> {
  await knex('playback_positions').where({ member_id: memberId, content_type: type, content_id: contentId }).delete();
}

/** The member's positions, most recently updated first (index member_id, updated_at). */
export async function recentPositions(knex: Knex, memberId: number, limit: number): Promise<Position[]> {
  const rows: Record<string, unknown>[] = await knex('playback_positions')
    .where({ member_id: memberId })
    .orderBy('updated_at', 'desc')
    .orderBy('content_id', 'desc')
    .limit(limit);
  return rows.map(toPosition);
}

export interface ListedItem {
  id: number;
  path: string;
  updatename: string;
  modelname: string;
}

/** Visible items by id (taken-down ones are left out). */
export async function itemsByIds(knex: Knex, type: PlayableType, ids: number[]): Promise<Map<number, ListedItem>> {
  if (!ids.length) return new Map();
  const table = PLAYABLE_TABLE[type];
  const rows: Record<string, unknown>[] = await visibleOnly(knex(table).whereIn('id', ids), knex, table).select(
    'id',
    'path',
    'updatename',
    'modelname',
  );
  return new Map(
    rows.map((r) => [
      Number(r.id),
      { id: Number(r.id), path: String(r.path), updatename: String(r.updatename), modelname: String(r.modelname) },
    ]),
  );
}
