import type { Knex } from 'knex';
import { TAG_MAX, TAGS_PER_ITEM_MAX } from '@media-site/contracts/search-filters';
import { foldForSearch } from '../initial';
import { ContentRuleError } from './errors';
import type { ContentType } from './takedowns';

// Tags of photo sets, videos and VODs (migration 030). A tag is stored folded (foldForSearch: lower
// case, no accents), so "Beach" and "beach" are one tag and the search filter compares exactly.

const TAG_CHARS = /^[\p{L}\p{N} -]+$/u;

export type TaggedType = Exclude<ContentType, 'freephotoset'>;

/** One tag as stored, or a bad_input error naming it. White space collapses to one space. */
export function normalizeTag(raw: string): string {
  const tag = foldForSearch(raw.slice(0, TAG_MAX * 4))
    .replace(/[\s_]+/gu, ' ')
    .trim();
  const shown = raw.slice(0, 40);
  if (!tag) throw new ContentRuleError('bad_input', 'tags: a tag must hold a letter or digit');
  if (tag.length > TAG_MAX) throw new ContentRuleError('bad_input', `tags: "${shown}" is longer than ${TAG_MAX} characters`);
  if (!TAG_CHARS.test(tag)) throw new ContentRuleError('bad_input', `tags: "${shown}" may hold only letters, digits, spaces and hyphens`);
  return tag;
}

/** Tags as stored: each normalized, duplicates dropped, in the order given; at most TAGS_PER_ITEM_MAX. */
export function normalizeTags(raw: readonly string[]): string[] {
  if (raw.length > TAGS_PER_ITEM_MAX * 2) throw new ContentRuleError('bad_input', `tags: at most ${TAGS_PER_ITEM_MAX}`);
  const tags = [...new Set(raw.map(normalizeTag))];
  if (tags.length > TAGS_PER_ITEM_MAX) throw new ContentRuleError('bad_input', `tags: at most ${TAGS_PER_ITEM_MAX}`);
  return tags;
}

/** Replaces an item's tags (already normalized) inside the caller's transaction. */
export async function replaceTags(trx: Knex | Knex.Transaction, type: TaggedType, id: number, tags: readonly string[]): Promise<void> {
  await trx('content_tags').where({ content_type: type, content_id: id }).delete();
  if (tags.length) await trx('content_tags').insert(tags.map((tag) => ({ content_type: type, content_id: id, tag })));
}

const IDS_PER_QUERY = 5_000;

/** The tags of some items of one type, by id, sorted A–Z (an item without tags is absent). */
export async function tagsOf(db: Knex, type: TaggedType, ids: readonly number[]): Promise<Map<number, string[]>> {
  const found = new Map<number, string[]>();
  for (let i = 0; i < ids.length; i += IDS_PER_QUERY) {
    const rows: Array<{ content_id: number | string; tag: string }> = await db('content_tags')
      .where('content_type', type)
      .whereIn('content_id', ids.slice(i, i + IDS_PER_QUERY))
      .orderBy('tag')
      .select('content_id', 'tag');
    for (const { content_id, tag } of rows) {
      const id = Number(content_id);
      const list = found.get(id);
      if (list) list.push(tag);
      else found.set(id, [tag]);
    }
  }
  return found;
}
