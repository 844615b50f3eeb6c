import type { Knex } from 'knex';
import type { Actor } from '../admin/accounts';
import { appendAudit } from '../admin/audit';
import { bumpGeneration } from '../generation';
import { strOrNull } from '../row-values';
import { ContentRuleError } from './errors';
import { enqueuePurge } from './purges';

export type ContentType = 'photoset' | 'freephotoset' | 'video' | 'vod';
export type ContentTableName = 'photosets' | 'freephotosets' | 'videos' | 'vods';

export const CONTENT_TABLE: Record<ContentType, ContentTableName> = {
  photoset: 'photosets',
  freephotoset: 'freephotosets',
  video: 'videos',
  vod: 'vods',
};

// The media families that serve an item's files, by content type (spec §7 media tree).
const MEDIA_FAMILIES: Record<ContentType, readonly string[]> = {
  photoset: ['photos', 'photosthumbs'],
  freephotoset: ['freephotos'],
  video: ['video', 'videothumbs', 'videorenditions', 'videopreviews'],
  vod: ['vod', 'vodthumbs', 'vodrenditions', 'vodpreviews'],
};

// Site pages and media paths an operator may paste: /photos/x, /video/x, /vod/x, /freephotos/x, /members/video/x/file, ...
const PREFIX_TYPE: Record<string, ContentType> = {
  photos: 'photoset',
  photosthumbs: 'photoset',
  freephotos: 'freephotoset',
  video: 'video',
  videos: 'video',
  videothumbs: 'video',
  videorenditions: 'video',
  videopreviews: 'video',
  vod: 'vod',
  vodthumbs: 'vod',
  vodrenditions: 'vod',
  vodpreviews: 'vod',
};

export interface ContentRef {
  type: ContentType;
  path: string;
}

/** The item a site URL or path names (`/video/abc`, `https://site/members/photos/abc/01.jpg`), or undefined. */
export function contentRefOf(urlOrPath: string): ContentRef | undefined {
  let pathname = urlOrPath.trim();
  try {
    if (/^https?:\/\//i.test(pathname)) pathname = new URL(pathname).pathname;
  } catch {
    return undefined;
  }
  let segments = pathname.split(/[?#]/)[0]!.split('/').filter(Boolean);
  try {
    segments = segments.map((s) => decodeURIComponent(s));
  } catch {
    return undefined;
  }
  if (segments[0] === 'members') segments = segments.slice(1);
  const [family, path] = segments;
  const type = family === undefined ? undefined : PREFIX_TYPE[family];
  if (!type || !path || path.length > 150) return undefined;
  return { type, path };
}

export function mediaPrefixesOf(ref: ContentRef): string[] {
  return MEDIA_FAMILIES[ref.type].map((family) => `${family}/${ref.path}/`);
}

export interface TakedownRow {
  content_type: ContentType;
  path: string;
  content_id: number;
  taken_down_at: number;
}

export async function activeTakedowns(db: Knex | Knex.Transaction): Promise<TakedownRow[]> {
  const rows: Record<string, unknown>[] = await db('takedowns').orderBy('taken_down_at').orderBy('id');
  return rows.map((r) => ({
    content_type: r.content_type as ContentType,
    path: String(r.path),
    content_id: Number(r.content_id),
    taken_down_at: Number(r.taken_down_at),
  }));
}

export interface TakedownChange {
  ref: ContentRef;
  actor: string;
  reason: string;
  reportReference?: string | undefined;
  now: number;
  /** Who made the change for the console's audit log (an admin, or `cli:<user>`): appended in the same transaction. */
  audit?: Actor;
}

/**
 * Takes an item down (or restores it), logs who, when and why, records the CDN purge it needs (the
 * purge outbox, delivered by the bff's worker) and bumps the catalog generation in
 * the same transaction, so every bff instance drops cached listings that still show it.
 * Returns the new generation (to announce on Redis).
 */
export async function takeDown(knex: Knex, change: TakedownChange): Promise<number> {
  return knex.transaction(async (trx) => {
    const { ref } = change;
    const item = await trx(CONTENT_TABLE[ref.type]).where({ path: ref.path }).first('id');
    if (!item) throw new ContentRuleError('not_found', `no ${ref.type} with path ${ref.path}`);
    const existing = await trx('takedowns').where({ content_type: ref.type, path: ref.path }).first('id');
    if (existing) throw new ContentRuleError('conflict', `${ref.type} ${ref.path} is taken down already`);
    await trx('takedowns').insert({ content_type: ref.type, path: ref.path, content_id: Number(item.id), taken_down_at: change.now });
    await log(trx, 'takedown', change);
    await auditContentChange(trx, 'content.takedown', change);
    await enqueuePurge(trx, 'takedown', mediaPrefixesOf(ref), change.now);
    return bumpGeneration(trx);
  });
}

export async function restore(knex: Knex, change: TakedownChange): Promise<number> {
  return knex.transaction(async (trx) => {
    const { ref } = change;
    const removed = await trx('takedowns').where({ content_type: ref.type, path: ref.path }).delete();
    if (removed === 0) throw new ContentRuleError('not_found', `${ref.type} ${ref.path} is not taken down`);
    await log(trx, 'restore', change);
    await auditContentChange(trx, 'content.restore', change);
    await enqueuePurge(trx, 'restore', mediaPrefixesOf(ref), change.now);
    return bumpGeneration(trx);
  });
}

async function log(trx: Knex.Transaction, action: 'takedown' | 'restore', change: TakedownChange): Promise<void> {
  await trx('takedown_log').insert({
    action,
    content_type: change.ref.type,
    path: change.ref.path,
    actor: change.actor,
    reason: change.reason,
    report_reference: change.reportReference ?? null,
    at: change.now,
  });
}

export interface TakedownLogRow {
  action: 'takedown' | 'restore';
  content_type: ContentType;
  path: string;
  actor: string;
  reason: string;
  report_reference: string | null;
  at: number;
}

export async function takedownLog(db: Knex, filter: { from?: number; to?: number } = {}): Promise<TakedownLogRow[]> {
  const q = db('takedown_log').orderBy('at').orderBy('id');
  if (filter.from !== undefined) q.where('at', '>=', filter.from);
  if (filter.to !== undefined) q.where('at', '<', filter.to);
  const rows: Record<string, unknown>[] = await q;
  return rows.map((r) => ({
    action: r.action as TakedownLogRow['action'],
    content_type: r.content_type as ContentType,
    path: String(r.path),
    actor: String(r.actor),
    reason: String(r.reason),
    report_reference: strOrNull(r.report_reference),
    at: Number(r.at),
  }));
}

/** Hidden catalog ids per table: what the bff filters out of every listing, search and detail. */
export async function hiddenContentIds(db: Knex): Promise<Record<ContentTableName, number[]>> {
  const hidden: Record<ContentTableName, number[]> = { photosets: [], freephotosets: [], videos: [], vods: [] };
  for (const t of await activeTakedowns(db)) hidden[CONTENT_TABLE[t.content_type]].push(t.content_id);
  return hidden;
}

/** The audit row of a takedown or restore, when the change names an auditor. */
async function auditContentChange(
  trx: Knex.Transaction,
  action: 'content.takedown' | 'content.restore',
  change: TakedownChange,
): Promise<void> {
  if (!change.audit) return;
  await appendAudit(trx, {
    ...change.audit,
    action,
    target: `${change.ref.type} ${change.ref.path}`,
    before: { takenDown: action === 'content.restore' },
    after: { takenDown: action === 'content.takedown', by: change.actor, reason: change.reason, report: change.reportReference ?? null },
    at: change.now,
  });
}
