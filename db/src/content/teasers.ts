import type { Knex } from 'knex';
import type { Actor } from '../admin/accounts';
import { appendAudit } from '../admin/audit';
import { bumpGeneration } from '../generation';
import { ContentRuleError } from './errors';
import { CONTENT_TABLE, type ContentRef, type ContentType } from './takedowns';

// "Coming soon" teasers: an operator marks a scheduled photo set, video or VOD as teased
// (`catalog tease`, the console's toggle: both through `tease` here). While its `publish_at` is in
// the future, visitors see a card with its title, model, release time and cover thumbnail (the one
// file of the item the media service serves before the release); nothing else of it: no detail page,
// no other media. At the release the teaser turns into the item itself (the release timer bumps the
// generation, the teaser list is cached by generation).

export type TeasedType = Exclude<ContentType, 'freephotoset'>;
const TEASED_TYPES: readonly TeasedType[] = ['photoset', 'video', 'vod'];

export interface TeaserRow {
  type: TeasedType;
  path: string;
  title: string;
  modelname: string;
  publishAt: number;
  /** The cover's media path (under /members/), the file the media service opens before the release. */
  cover: string;
}

/** The cover thumbnail of an item, relative to the media root (the same files the listings show). */
export function coverOf(type: TeasedType, path: string): string {
  return type === 'photoset' ? `photosthumbs/${path}/large.jpg` : `${type}thumbs/${path}/${path}_02.jpg`;
}

export const isTeasable = (type: ContentType): type is TeasedType => (TEASED_TYPES as readonly string[]).includes(type);

/**
 * Marks an item teased (or not) and bumps the catalog generation, with the audit row, in one
 * transaction. Any item may be marked; the teaser shows only while its release is in the future.
 * Returns the new generation and the item's release time (null: published).
 */
export async function tease(
  knex: Knex,
  ref: ContentRef,
  teased: boolean,
  audit: Actor & { now: number },
): Promise<{ generation: number; publishAt: number | null }> {
  if (!isTeasable(ref.type))
    throw new ContentRuleError('bad_input', 'only photo sets, videos and VODs can be teased (free sets are never scheduled updates)');
  return knex.transaction(async (trx) => {
    const table = CONTENT_TABLE[ref.type];
    const row = await trx(table).where({ path: ref.path }).first('teased', 'publish_at');
    if (!row) throw new ContentRuleError('not_found', `no ${ref.type} with path ${ref.path}`);
    await trx(table).where({ path: ref.path }).update({ teased });
    await appendAudit(trx, {
      actor: audit.actor,
      address: audit.address,
      action: teased ? 'content.tease' : 'content.untease',
      target: `${ref.type} ${ref.path}`,
      before: { teased: Boolean(row.teased) },
      after: { teased },
      at: audit.now,
    });
    const publishAt = row.publish_at == null ? null : Number(row.publish_at);
    return { generation: await bumpGeneration(trx), publishAt };
  });
}

/** Teased items not released at `now`, soonest first: what visitors see as "Coming soon". */
export async function teasedItems(db: Knex, now: number): Promise<TeaserRow[]> {
  const rows: TeaserRow[] = [];
  for (const type of TEASED_TYPES) {
    const found: Record<string, unknown>[] = await db(CONTENT_TABLE[type])
      .where('publish_at', '>', now)
      .where('teased', true)
      .whereNotIn('id', db('takedowns').where('content_type', type).select('content_id'))
      .select('path', 'updatename', 'modelname', 'publish_at');
    for (const r of found) {
      const path = String(r.path);
      rows.push({
        type,
        path,
        title: String(r.updatename),
        modelname: String(r.modelname ?? ''),
        publishAt: Number(r.publish_at),
        cover: coverOf(type, path),
      });
    }
  }
  return rows.sort((a, b) => a.publishAt - b.publishAt || a.path.localeCompare(b.path));
}

export interface ScheduledTeaserRow {
  type: TeasedType;
  path: string;
  title: string;
  publishAt: number;
  teased: boolean;
}

/** The console's list: photo sets, videos and VODs not released at `now` and whether each is teased, soonest first. */
export async function scheduledTeasers(db: Knex, now: number, limit = 200): Promise<ScheduledTeaserRow[]> {
  const rows: ScheduledTeaserRow[] = [];
  for (const type of TEASED_TYPES) {
    const found: Record<string, unknown>[] = await db(CONTENT_TABLE[type])
      .where('publish_at', '>', now)
      .orderBy('publish_at')
      .limit(limit)
      .select('path', 'updatename', 'publish_at', 'teased');
    for (const r of found)
      rows.push({ type, path: String(r.path), title: String(r.updatename), publishAt: Number(r.publish_at), teased: Boolean(r.teased) });
  }
  return rows.sort((a, b) => a.publishAt - b.publishAt || a.path.localeCompare(b.path)).slice(0, limit);
}
