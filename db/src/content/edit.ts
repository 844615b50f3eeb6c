import type { Knex } from 'knex';
import { vodDownloadName } from '@media-site/contracts/download-name';
import type { Actor } from '../admin/accounts';
import { appendAudit } from '../admin/audit';
import { enqueue, jobFor, type JobStatus } from '../encode/queue';
import { bumpGeneration } from '../generation';
import { foldForSearch, modelInitial, searchText } from '../initial';
import { isSqlite } from '../knex';
import { ContentRuleError } from './errors';
import { normalizeTags, replaceTags, tagsOf } from './tags';
import { CONTENT_TABLE, type ContentRef, type ContentType } from './takedowns';

// The console's Content screen and the CLI's `catalog edit` / `catalog reencode`: finding
// items, editing their facts, queueing a re-encode. Each change is audited (before/after) in the
// transaction that makes it and bumps the catalog generation, as takedowns and schedules do.

const TYPES = Object.keys(CONTENT_TABLE) as ContentType[];
const bad = (message: string) => new ContentRuleError('bad_input', message);

export type ContentKind = ContentType | 'model';
export const CONTENT_KINDS: readonly ContentKind[] = [...TYPES, 'model'];
export type ContentState = 'all' | 'live' | 'scheduled' | 'takendown';
export const CONTENT_STATES: readonly ContentState[] = ['all', 'live', 'scheduled', 'takendown'];

/** Limits of a search (the API checks them too): a page of at most 100, no further than item 10,000. */
export const CONTENT_QUERY_MAX = 100;
export const CONTENT_PAGE_SIZE_MAX = 100;
export const CONTENT_PAGE_MAX = 200;

export interface EncodeState {
  status: JobStatus;
  attempts: number;
  /** 0..1 */
  progress: number;
  error: string | null;
  updatedAt: number;
}

export interface ContentItem {
  type: ContentKind;
  /** The item's path (for a model: its name). */
  path: string;
  title: string;
  model: string | null;
  /** YYYY-MM-DD */
  date: string | null;
  /** VODs only: "24.50" */
  price: string | null;
  /** Unix ms while scheduled; null once published. */
  publishAt: number | null;
  takenDown: boolean;
  /** Videos and VODs: their encode job, null when none was queued yet. */
  encode: EncodeState | null;
  /** Models only: how many photo sets, videos and VODs name them. */
  items?: number;
  /** Photo sets, videos and VODs: their tags (content/tags.ts), A–Z. */
  tags?: string[];
}

export interface ContentSearch {
  q?: string | undefined;
  type?: ContentKind | undefined;
  state?: ContentState | undefined;
  /** 1-based */
  page: number;
  pageSize: number;
  now: number;
  /** Exactly this item (contentItem). */
  path?: string;
}

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const priceText = (value: unknown) => (value === null || value === undefined ? null : Number(value).toFixed(2));
const numOrNull = (value: unknown) => (value === null || value === undefined ? null : Number(value));

function checkSearch(s: ContentSearch): void {
  if ((s.q ?? '').length > CONTENT_QUERY_MAX) throw bad(`q: at most ${CONTENT_QUERY_MAX} characters`);
  if (!Number.isInteger(s.page) || s.page < 1 || s.page > CONTENT_PAGE_MAX) throw bad(`page: a whole number from 1 to ${CONTENT_PAGE_MAX}`);
  if (!Number.isInteger(s.pageSize) || s.pageSize < 1 || s.pageSize > CONTENT_PAGE_SIZE_MAX)
    throw bad(`pageSize: a whole number from 1 to ${CONTENT_PAGE_SIZE_MAX}`);
}

/** One table's matches, newest first, at most `limit`. */
async function tableMatches(db: Knex, type: ContentType, s: ContentSearch, limit: number): Promise<ContentItem[]> {
  const table = CONTENT_TABLE[type];
  const query = db({ t: table })
    .leftJoin({ d: 'takedowns' }, function () {
      this.on('d.content_type', '=', db.raw('?', [type])).andOn('d.path', '=', 't.path');
    })
    .orderBy('t.datetoupload', 'desc')
    .orderBy('t.id', 'desc')
    .limit(limit);
  if (s.path !== undefined) query.where('t.path', s.path);
  const q = (s.q ?? '').trim();
  if (q) {
    // Title and model as the site's search compares them (search_text: folded, so "emilie" finds
    // "Émilie"; a binary collation so every backend agrees), or part of the path.
    const folded = likePattern(foldForSearch(q));
    const column = isSqlite(db) ? 't.search_text' : 't.search_text COLLATE utf8mb4_bin';
    query.where((w) => {
      w.whereRaw('LOWER(t.path) LIKE ? ESCAPE ?', [likePattern(q.toLowerCase()), '\\']);
      if (type === 'freephotoset') w.orWhereRaw('LOWER(t.updatename) LIKE ? ESCAPE ?', [likePattern(q.toLowerCase()), '\\']);
      else w.orWhereRaw(`${column} LIKE ? ESCAPE ?`, [folded, '\\']);
    });
  }
  if (s.state === 'scheduled') query.where('t.publish_at', '>', s.now);
  if (s.state === 'takendown') query.whereNotNull('d.id');
  if (s.state === 'live') query.whereNull('d.id').andWhere((w) => w.whereNull('t.publish_at').orWhere('t.publish_at', '<=', s.now));
  const columns = ['t.id', 't.path', 't.updatename', 't.datetoupload', 't.publish_at', { down: 'd.id' }];
  if (type !== 'freephotoset') columns.push('t.modelname');
  if (type === 'vod') columns.push('t.price');
  const rows: Record<string, unknown>[] = await query.select(columns);
  const jobs = new Map<string, EncodeState>();
  if ((type === 'video' || type === 'vod') && rows.length) {
    const found: Record<string, unknown>[] = await db('media_jobs')
      .where({ content_type: type })
      .whereIn(
        'path',
        rows.map((r) => String(r.path)),
      )
      .select('path', 'status', 'attempts', 'progress', 'error', 'updated_at');
    for (const j of found)
      jobs.set(String(j.path), {
        status: j.status as JobStatus,
        attempts: Number(j.attempts),
        progress: Number(j.progress) / 1000,
        error: j.error == null ? null : String(j.error),
        updatedAt: Number(j.updated_at),
      });
  }
  const tags =
    type === 'freephotoset'
      ? new Map<number, string[]>()
      : await tagsOf(
          db,
          type,
          rows.map((r) => Number(r.id)),
        );
  return rows.map((r) => {
    const publishAt = numOrNull(r.publish_at);
    return {
      type,
      path: String(r.path),
      title: String(r.updatename),
      model: r.modelname == null ? null : String(r.modelname),
      date: String(r.datetoupload).slice(0, 10),
      price: type === 'vod' ? priceText(r.price) : null,
      publishAt: publishAt !== null && publishAt > s.now ? publishAt : null,
      takenDown: r.down != null,
      encode: jobs.get(String(r.path)) ?? null,
      ...(type === 'freephotoset' ? {} : { tags: tags.get(Number(r.id)) ?? [] }),
    };
  });
}

async function modelMatches(db: Knex, s: ContentSearch, offset: number, limit: number): Promise<ContentItem[]> {
  const query = db('models').orderBy('modelname').orderBy('id').offset(offset).limit(limit);
  const q = (s.q ?? '').trim();
  if (q) query.whereRaw('LOWER(modelname) LIKE ? ESCAPE ?', [likePattern(q.toLowerCase()), '\\']);
  const rows: Record<string, unknown>[] = await query.select('id', 'modelname');
  const counts = new Map<number, number>();
  if (rows.length)
    for (const table of ['photosets', 'videos', 'vods']) {
      const found: Record<string, unknown>[] = await db(table)
        .whereIn(
          'model_id',
          rows.map((r) => Number(r.id)),
        )
        .groupBy('model_id')
        .select('model_id')
        .count({ n: '*' });
      for (const f of found) counts.set(Number(f.model_id), (counts.get(Number(f.model_id)) ?? 0) + Number(f.n));
    }
  return rows.map((r) => ({
    type: 'model',
    path: String(r.modelname),
    title: String(r.modelname),
    model: null,
    date: null,
    price: null,
    publishAt: null,
    takenDown: false,
    encode: null,
    items: counts.get(Number(r.id)) ?? 0,
  }));
}

/**
 * Items matching `q` (title, model or path, any case) of one type or all, newest first, one page;
 * `more` says whether another page follows. Models are listed on their own (type 'model'), by name.
 */
export async function findContent(db: Knex, s: ContentSearch): Promise<{ items: ContentItem[]; more: boolean }> {
  checkSearch(s);
  const offset = (s.page - 1) * s.pageSize;
  const wanted = offset + s.pageSize + 1;
  let all: ContentItem[];
  if (s.type === 'model') all = await modelMatches(db, s, offset, s.pageSize + 1);
  else {
    const merged: ContentItem[] = [];
    for (const type of s.type ? [s.type] : TYPES) merged.push(...(await tableMatches(db, type, s, wanted)));
    merged.sort((a, b) => (b.date ?? '').localeCompare(a.date ?? '') || a.type.localeCompare(b.type) || a.path.localeCompare(b.path));
    all = merged.slice(offset);
  }
  return { items: all.slice(0, s.pageSize), more: all.length > s.pageSize };
}

/** One item as the Content screen shows it, or a not_found error. */
export async function contentItem(db: Knex, ref: ContentRef, now: number): Promise<ContentItem> {
  const [item] = await tableMatches(db, ref.type, { page: 1, pageSize: 1, now, path: ref.path }, 1);
  if (!item) throw new ContentRuleError('not_found', `no ${ref.type} with path ${ref.path}`);
  return item;
}

/** The limits of an edit (the columns of migration 001): the API and the CLI check them alike. */
export const TITLE_MAX = 200;
export const MODEL_MAX = 100;
export const PRICE_MAX = 999_999.99;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const PRICE = /^\d{1,6}(?:\.\d{1,2})?$/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

export interface ContentEdit {
  title?: string | undefined;
  model?: string | undefined;
  /** YYYY-MM-DD */
  date?: string | undefined;
  /** "24.50" */
  price?: string | undefined;
  /** The item's whole tag list (replaces the old one; [] removes every tag). */
  tags?: readonly string[] | undefined;
}

function text(name: string, value: string, max: number): string {
  const trimmed = value.trim();
  if (trimmed.length > max) throw bad(`${name}: at most ${max} characters`);
  if (!trimmed) throw bad(`${name}: must not be empty`);
  if (CONTROL.test(trimmed)) throw bad(`${name}: no line breaks or control characters`);
  return trimmed;
}

function dateOf(value: string): string {
  const trimmed = value.trim();
  const m = trimmed.length <= 10 ? DATE.exec(trimmed) : null;
  const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : NaN;
  if (!m || !Number.isFinite(ms) || new Date(ms).toISOString().slice(0, 10) !== trimmed)
    throw bad(`date: "${value.slice(0, 20)}" is not a date like 2026-12-01`);
  if (trimmed < '1990-01-01' || trimmed > '2099-12-31') throw bad('date: from 1990-01-01 to 2099-12-31');
  return trimmed;
}

function priceOf(value: string): string {
  const trimmed = value.trim();
  if (trimmed.length > 12 || !PRICE.test(trimmed)) throw bad(`price: "${value.slice(0, 20)}" is not an amount like 24.50`);
  const amount = Number(trimmed);
  if (amount <= 0 || amount > PRICE_MAX) throw bad(`price: from 0.01 to ${PRICE_MAX.toFixed(2)}`);
  return amount.toFixed(2);
}

/** The edit with each field checked and trimmed (bad_input at the first bad one); fields an item lacks are refused. */
export function checkEdit(type: ContentType, edit: ContentEdit): ContentEdit {
  const checked: ContentEdit = {};
  if (edit.title !== undefined) checked.title = text('title', edit.title, TITLE_MAX);
  if (edit.model !== undefined) {
    if (type === 'freephotoset') throw bad('model: a free photo set has no model');
    checked.model = text('model', edit.model, MODEL_MAX);
  }
  if (edit.date !== undefined) checked.date = dateOf(edit.date);
  if (edit.price !== undefined) {
    if (type !== 'vod') throw bad('price: only a VOD has a price');
    checked.price = priceOf(edit.price);
  }
  if (edit.tags !== undefined) {
    if (type === 'freephotoset') throw bad('tags: free photo sets have no tags');
    checked.tags = normalizeTags(edit.tags);
  }
  if (Object.keys(checked).length === 0) throw bad('nothing to change: give a title, model, date, price or tags');
  return checked;
}

export interface EditResult {
  /** The fields that changed (none: the item already had these values, nothing was written). */
  changed: Array<keyof ContentEdit>;
  generation: number | null;
}

/**
 * Edits an item's title, model, date, price or tags; the search text follows the title and model, a new
 * model name becomes a model. One transaction: the row, the audit entry (before/after of what
 * changed) and the generation bump, so every cache drops the old answer.
 */
export async function editContent(knex: Knex, ref: ContentRef, edit: ContentEdit, audit: Actor & { now: number }): Promise<EditResult> {
  const wanted = checkEdit(ref.type, edit);
  return knex.transaction(async (trx) => {
    const table = CONTENT_TABLE[ref.type];
    const row: Record<string, unknown> | undefined = await trx(table).where({ path: ref.path }).first();
    if (!row) throw new ContentRuleError('not_found', `no ${ref.type} with path ${ref.path}`);
    const id = Number(row.id);
    const current: Required<ContentEdit> = {
      title: String(row.updatename),
      model: row.modelname == null ? '' : String(row.modelname),
      date: String(row.datetoupload).slice(0, 10),
      price: priceText(row.price) ?? '',
      tags: ref.type === 'freephotoset' ? [] : ((await tagsOf(trx, ref.type, [id])).get(id) ?? []),
    };
    const same = (k: keyof ContentEdit) =>
      k === 'tags' ? [...(wanted.tags ?? [])].sort().join('\n') === [...current.tags].sort().join('\n') : wanted[k] === current[k];
    const changed = (Object.keys(wanted) as Array<keyof ContentEdit>).filter((k) => !same(k));
    if (changed.length === 0) return { changed, generation: null };
    const update: Record<string, unknown> = {};
    if (wanted.title !== undefined) update.updatename = wanted.title;
    if (wanted.date !== undefined) update.datetoupload = wanted.date;
    if (wanted.price !== undefined) update.price = wanted.price;
    if (wanted.model !== undefined && wanted.model !== current.model) {
      const known = await trx('models').where({ modelname: wanted.model }).first('id', 'modelname');
      if (known) {
        update.model_id = Number(known.id);
        update.modelname = String(known.modelname);
      } else {
        const [id] = await trx('models').insert({ modelname: wanted.model, initial: modelInitial(wanted.model), thumbnail: null });
        update.model_id = Number(id);
        update.modelname = wanted.model;
      }
    }
    if (ref.type === 'vod' && wanted.date !== undefined) {
      // A VOD's original is stored under a name its date decides (spec §7): a date across 2024-01-28 would lose it.
      const naming = { prename: String(row.prename), path: ref.path, format: Number(row.format) };
      if (vodDownloadName({ ...naming, datetoupload: current.date }) !== vodDownloadName({ ...naming, datetoupload: wanted.date }))
        throw bad(`date: this VOD's file name depends on its date being before or after 2024-01-28; choose a date on the same side`);
    }
    if (ref.type !== 'freephotoset' && (update.updatename !== undefined || update.modelname !== undefined))
      update.search_text = searchText(String(update.updatename ?? current.title), String(update.modelname ?? current.model));
    if (Object.keys(update).length) await trx(table).where({ path: ref.path }).update(update);
    if (wanted.tags !== undefined && changed.includes('tags') && ref.type !== 'freephotoset')
      await replaceTags(trx, ref.type, id, wanted.tags);
    const pick = (values: ContentEdit) => Object.fromEntries(changed.map((k) => [k, values[k]]));
    await appendAudit(trx, {
      actor: audit.actor,
      address: audit.address,
      action: 'content.edit',
      target: `${ref.type} ${ref.path}`,
      before: pick(current),
      after: pick({ ...wanted, model: (update.modelname as string | undefined) ?? wanted.model }),
      at: audit.now,
    });
    return { changed, generation: await bumpGeneration(trx) };
  });
}

/**
 * Queues a video's or VOD's encode again from scratch (fresh attempts, no retry delay), through the
 * queue's own enqueue as `ops encode` and the ingest do: a done or failed job. Refused while it
 * runs or waits in the queue, or before it was ever queued (then `ops encode --scan` queues it
 * once its original is on the media volume).
 */
export async function requeueEncode(
  knex: Knex,
  ref: ContentRef,
  audit: Actor & { now: number },
): Promise<{ id: number; status: 'queued' }> {
  if (ref.type !== 'video' && ref.type !== 'vod') throw bad(`only a video or VOD is encoded; ${ref.type} ${ref.path} is not one`);
  const type = ref.type;
  return knex.transaction(async (trx) => {
    const job = await jobFor(trx, type, ref.path);
    if (!job)
      throw new ContentRuleError(
        'not_found',
        `${type} ${ref.path} has no encode job yet: "ops encode --scan" queues it once its original is on the media volume`,
      );
    if (job.status === 'running')
      throw new ContentRuleError('conflict', `${type} ${ref.path} is being encoded now (attempt ${job.attempts}); wait until it ends`);
    if (job.status === 'queued')
      throw new ContentRuleError('conflict', `${type} ${ref.path} is already waiting in the encode queue; a worker takes it next`);
    const { id } = await enqueue(trx, { type, path: ref.path, sourceSig: job.sourceSig, again: true }, audit.now);
    await appendAudit(trx, {
      actor: audit.actor,
      address: audit.address,
      action: 'content.reencode',
      target: `${type} ${ref.path}`,
      before: { status: job.status, attempts: job.attempts, error: job.error },
      after: { status: 'queued', attempts: 0 },
      at: audit.now,
    });
    return { id, status: 'queued' };
  });
}
