import type { Knex } from 'knex';
import { isoTime } from '@media-site/contracts/iso-time';
import type { Actor } from '../admin/accounts';
import { appendAudit } from '../admin/audit';
import { bumpGeneration } from '../generation';
import { ContentRuleError } from './errors';
import { CONTENT_TABLE, type ContentRef, type ContentTableName, type ContentType } from './takedowns';

// Scheduled releases: `publish_at` (unix ms) on every item table; NULL is published.

const RELEASED_THROUGH = 'released_through';
const TYPES = Object.keys(CONTENT_TABLE) as ContentType[];

export interface ScheduledRow {
  content_type: ContentType;
  path: string;
  publish_at: number;
}

/** The calendar day (UTC, `YYYY-MM-DD`) of a unix-ms time: the catalog's `datetoupload`. */
function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * The `datetoupload` an item gets from this change, if any. A release is news on its own day: an
 * item scheduled for later takes the release day as its date (members see it, and the date-sorted
 * listings and home place it, as new that day, not under the day it was uploaded months before);
 * unscheduling an item still waiting for its release publishes it now, so it takes today. Clearing
 * the time of an item already out changes nothing.
 */
function releaseDay(publishAt: number | null, wasPending: boolean, now: number): string | undefined {
  if (publishAt !== null) return dayOf(publishAt);
  return wasPending ? dayOf(now) : undefined;
}

/**
 * Sets (or clears, with null) an item's release time, and its date (releaseDay), and bumps the
 * catalog generation in the same transaction, like a takedown: every cache drops what it held, and
 * every bff re-arms its release timer when it learns the new generation. Returns the new generation
 * (to announce on Redis).
 */
export async function schedule(knex: Knex, ref: ContentRef, publishAt: number | null, audit?: Actor & { now: number }): Promise<number> {
  const now = audit?.now ?? Date.now();
  return knex.transaction(async (trx) => {
    const table = CONTENT_TABLE[ref.type];
    const row = await trx(table).where({ path: ref.path }).first('publish_at', 'datetoupload');
    if (!row) throw new ContentRuleError('not_found', `no ${ref.type} with path ${ref.path}`);
    const wasAt = row.publish_at == null ? null : Number(row.publish_at);
    const day = releaseDay(publishAt, wasAt !== null && wasAt > now, now);
    await trx(table)
      .where({ path: ref.path })
      .update({ publish_at: publishAt, ...(day === undefined ? {} : { datetoupload: day }) });
    if (audit)
      await appendAudit(trx, {
        actor: audit.actor,
        address: audit.address,
        action: publishAt === null ? 'content.unschedule' : 'content.schedule',
        target: `${ref.type} ${ref.path}`,
        before: { publishAt: wasAt, datetoupload: String(row.datetoupload) },
        after: { publishAt, datetoupload: day ?? String(row.datetoupload) },
        at: audit.now,
      });
    return bumpGeneration(trx);
  });
}

/** Items not yet released at `now`, soonest first. */
export async function scheduledItems(db: Knex, now: number): Promise<ScheduledRow[]> {
  const rows: ScheduledRow[] = [];
  for (const type of TYPES) {
    const found: Record<string, unknown>[] = await db(CONTENT_TABLE[type]).where('publish_at', '>', now).select('path', 'publish_at');
    for (const r of found) rows.push({ content_type: type, path: String(r.path), publish_at: Number(r.publish_at) });
  }
  return rows.sort((a, b) => a.publish_at - b.publish_at || a.path.localeCompare(b.path));
}

/** The ids of one table's items not yet released at `now` (a subquery for visibleOnly). */
export function unreleasedIds(db: Knex, table: ContentTableName, now: number): Knex.QueryBuilder {
  return db(table).where('publish_at', '>', now).select('id');
}

async function releasedThrough(db: Knex | Knex.Transaction): Promise<number> {
  const row = await db('catalog_meta').where({ name: RELEASED_THROUGH }).first('value');
  return row ? Number(row.value) : 0;
}

/**
 * The earliest release time the generation has not been bumped for yet, or undefined when none is
 * due. One statement (a UNION ALL of each table's minimum over the publish_at index), so a timer
 * re-arming costs one round trip.
 */
export async function nextRelease(db: Knex): Promise<number | undefined> {
  const after = db('catalog_meta').where({ name: RELEASED_THROUGH }).select('value');
  const [first, ...rest] = TYPES.map((type) => db(CONTENT_TABLE[type]).where('publish_at', '>', after).min({ at: 'publish_at' }));
  const rows: Array<{ at?: unknown }> = await first!.unionAll(rest);
  const times = rows.map((r) => (r.at === null || r.at === undefined ? NaN : Number(r.at))).filter(Number.isFinite);
  return times.length === 0 ? undefined : Math.min(...times);
}

/**
 * Bumps the catalog generation once for the releases that fell due by `now`: the first instance to
 * move `released_through` past them (a conditional update, atomic in MariaDB and SQLite) bumps, the
 * others find nothing to do. Returns the new generation, or undefined when there was nothing to bump.
 */
export async function releaseDue(knex: Knex, now: number): Promise<number | undefined> {
  return knex.transaction(async (trx) => {
    const since = await releasedThrough(trx);
    let due = false;
    for (const type of TYPES) {
      due ||= (await trx(CONTENT_TABLE[type]).where('publish_at', '>', since).where('publish_at', '<=', now).first('id')) !== undefined;
    }
    if (!due) return undefined;
    const moved = await trx('catalog_meta').where({ name: RELEASED_THROUGH, value: since }).update({ value: now });
    return moved === 1 ? bumpGeneration(trx) : undefined;
  });
}

// An ISO 8601 date and time with an explicit offset: a release time must not depend on the shell's TZ.
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/;
// Far enough for any calendar; keeps the value well inside a BIGINT and a Date.
const LATEST = Date.UTC(2100, 0, 1);

/** Unix ms of `text` (the CLI's `catalog schedule` and the console alike), or a bad_input error (exit 2) that says what is accepted. */
export function parseReleaseTime(text: string): number {
  const value = text.trim();
  const ms = value.length <= 40 && ISO_TIME.test(value) ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms))
    throw new ContentRuleError(
      'bad_input',
      `"${text}" is not an ISO 8601 time with a time zone (e.g. 2026-12-01T18:00:00Z or 2026-12-01T19:00+01:00)`,
    );
  if (ms >= LATEST) throw new ContentRuleError('bad_input', `release time ${value} is after ${isoTime(LATEST, '', 's')}`);
  return ms;
}
