import type { Knex } from 'knex';
import { contentRefOf } from '@media-site/db/content';
import { deadlinesOf, type HolidayList, NO_HOLIDAYS, type ReportRow, reportsReceived } from '@media-site/db/moderation';
import { isoTime } from '@media-site/contracts/iso-time';

/**
 * The monthly export's columns, in order. Stable: add new columns at the end only
 * (docs/compliance.md describes each). Free text (details, notes) and reporters' e-mail addresses
 * stay out: the export goes to card networks and auditors, reporters' identities do not.
 */
export const EXPORT_COLUMNS = [
  'reference',
  'received_at',
  'content_url',
  'content_type',
  'content_path',
  'reason',
  'reporter_contact',
  'acknowledge_due',
  'acknowledged_at',
  'acknowledged_on_time',
  'resolve_due',
  'resolved_at',
  'resolved_on_time',
  'outcome',
  'appealed_at',
  'appeal_due',
  'appeal_decided_at',
  'appeal_on_time',
  'appeal_decision',
  'status',
] as const;

/** [start, end) in unix ms of a 'YYYY-MM' month in UTC. */
export function monthRange(month: string): { from: number; to: number } {
  const m = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(month);
  if (!m) throw new RangeError(`month must be YYYY-MM, got "${month}"`);
  const year = Number(m[1]);
  const index = Number(m[2]) - 1;
  return { from: Date.UTC(year, index, 1), to: Date.UTC(year, index + 1, 1) };
}

const iso = (ms: number | null) => isoTime(ms, '');

/** yes = done in time, no = done late, overdue = pending past the deadline, pending = not due yet. */
function timeliness(doneAt: number | null, due: number, now: number): string {
  if (doneAt !== null) return doneAt <= due ? 'yes' : 'no';
  return now > due ? 'overdue' : 'pending';
}

function statusOf(r: ReportRow): string {
  if (r.appealed_at !== null) return r.appeal_decided_at === null ? 'appealed' : 'appeal_decided';
  if (r.resolved_at !== null) return 'resolved';
  return r.acknowledged_at !== null ? 'acknowledged' : 'received';
}

export function exportRow(r: ReportRow, now: number, holidays: HolidayList = NO_HOLIDAYS): Record<(typeof EXPORT_COLUMNS)[number], string> {
  const d = deadlinesOf(r, holidays);
  const ref = contentRefOf(r.content_url);
  return {
    reference: r.reference,
    received_at: iso(r.created_at),
    content_url: r.content_url,
    content_type: ref?.type ?? '',
    content_path: ref?.path ?? '',
    reason: r.reason,
    reporter_contact: r.reporter_email ? 'yes' : 'no',
    acknowledge_due: iso(d.acknowledgeBy),
    acknowledged_at: iso(r.acknowledged_at),
    acknowledged_on_time: timeliness(r.acknowledged_at, d.acknowledgeBy, now),
    resolve_due: iso(d.resolveBy),
    resolved_at: iso(r.resolved_at),
    resolved_on_time: timeliness(r.resolved_at, d.resolveBy, now),
    outcome: r.outcome ?? '',
    appealed_at: iso(r.appealed_at),
    appeal_due: iso(d.appealDecideBy),
    appeal_decided_at: iso(r.appeal_decided_at),
    appeal_on_time: d.appealDecideBy === null ? '' : timeliness(r.appeal_decided_at, d.appealDecideBy, now),
    appeal_decision: r.appeal_decision ?? '',
    status: statusOf(r),
  };
}

/** RFC 4180 quoting; a leading = + - @ gets an apostrophe so spreadsheets do not run it as a formula. */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function toCsv(rows: Array<Record<string, string>>, columns: readonly string[]): string {
  const lines = [columns.join(',')];
  for (const row of rows) lines.push(columns.map((c) => csvCell(row[c] ?? '')).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

export async function monthlyExport(db: Knex, month: string, now: number, holidays: HolidayList = NO_HOLIDAYS): Promise<string> {
  const { from, to } = monthRange(month);
  const rows = (await reportsReceived(db, from, to)).map((r) => exportRow(r, now, holidays));
  return toCsv(rows, EXPORT_COLUMNS);
}
