import type { Knex } from 'knex';
import type { AuditRow } from '@media-site/contracts/admin';

// The console's audit log: append-only. This module is its only writer and has no update or
// delete: a row, once written, stays (docs/security.md "Operator console").

export interface AuditEntry {
  /** An admin's name, or `cli:<user>` for the operator CLI. */
  actor: string;
  /** `admin.add`, `admin.signin`, `member.disable`, ... */
  action: string;
  target?: string;
  before?: unknown;
  after?: unknown;
  /** The client address as the bff derives it (trusted proxies); '' from the CLI. */
  address?: string;
  at: number;
}

export type { AuditRow };

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));
const parsed = (text: unknown) => (typeof text === 'string' ? (JSON.parse(text) as unknown) : null);

export async function appendAudit(db: Knex | Knex.Transaction, e: AuditEntry): Promise<void> {
  await db('admin_audit').insert({
    at: e.at,
    actor: e.actor.slice(0, 80),
    action: e.action,
    target: (e.target ?? '').slice(0, 200),
    before_json: json(e.before),
    after_json: json(e.after),
    address: (e.address ?? '').slice(0, 64),
  });
}

/** Who reads personal data, from where (the client address; none from the CLI), and when. */
export interface Reader {
  actor: string;
  address?: string;
  now: number;
}

/**
 * A read of personal data (a member's e-mail and payments, a reporter's address, the log itself),
 * recorded before the data is answered: when the row cannot be written the read fails and nothing
 * is shown. `detail` says what was shown (how many, whose).
 */
export async function recordRead(db: Knex, reader: Reader, action: string, target: string, detail?: unknown): Promise<void> {
  await appendAudit(db, { actor: reader.actor, address: reader.address, action, target, after: detail, at: reader.now });
}

export const AUDIT_PAGE_MAX = 200;

/** Newest first; `before` (an id) pages back. */
export async function auditPage(db: Knex, page: { before?: number; limit: number }): Promise<AuditRow[]> {
  const query = db('admin_audit').orderBy('id', 'desc').limit(Math.min(page.limit, AUDIT_PAGE_MAX));
  if (page.before !== undefined) query.where('id', '<', page.before);
  const rows: Record<string, unknown>[] = await query.select('*');
  return rows.map((r) => ({
    id: Number(r.id),
    at: Number(r.at),
    actor: String(r.actor),
    action: String(r.action),
    target: String(r.target),
    before: parsed(r.before_json),
    after: parsed(r.after_json),
    address: String(r.address),
  }));
}

/** The owner's page of the log, recorded as `audit.read`: the log names admins' addresses and members. */
export async function readAuditPage(db: Knex, page: { before?: number; limit: number }, reader: Reader): Promise<AuditRow[]> {
  const entries = await auditPage(db, page);
  await recordRead(db, reader, 'audit.read', '', { before: page.before ?? null, shown: entries.length });
  return entries;
}

const CSV_HEADER = ['id', 'at', 'actor', 'action', 'target', 'before', 'after', 'address'];

/** One CSV field: quoted when needed; a leading = + - @ is prefixed with ' so spreadsheets do not run it. */
function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** The whole log as CSV (oldest first), read in pages so memory stays flat. */
export async function* auditCsv(db: Knex): AsyncGenerator<string> {
  yield `${CSV_HEADER.join(',')}\r\n`;
  let after = 0;
  for (;;) {
    const rows: Record<string, unknown>[] = await db('admin_audit').where('id', '>', after).orderBy('id').limit(500).select('*');
    if (rows.length === 0) return;
    for (const r of rows) {
      const at = new Date(Number(r.at)).toISOString();
      const fields = [String(r.id), at, r.actor, r.action, r.target, r.before_json ?? '', r.after_json ?? '', r.address];
      yield `${fields.map((f) => csvField(String(f))).join(',')}\r\n`;
    }
    after = Number(rows[rows.length - 1]!.id);
  }
}

/** The CSV export, recorded as `audit.export` before its first byte: the file holds its own row. */
export async function exportAuditCsv(db: Knex, reader: Reader): Promise<AsyncGenerator<string>> {
  await recordRead(db, reader, 'audit.export', 'audit.csv');
  return auditCsv(db);
}
