import type { Knex } from 'knex';
import type { RenderedMail } from './compose';
import { queuePaused } from '../queues/switches';
import { ADDRESS_REFUSED, isPlainAddress, oneLine } from './headers';

/** One mail to write to the outbox: `key` names the event it is for, so the same event adds no second mail. */
export interface OutgoingMail extends RenderedMail {
  /** Unique per event, at most 120 characters: 'welcome:attempt:12', 'webhook:345:RenewalSuccess'. */
  key: string;
  to: string;
  /** Which template made it ('password-reset', 'receipt', ...): for logs and metrics, never for the text. */
  template: string;
  /**
   * A mail members asked for and may stop (the release digest): the https address that stops it with
   * one POST (RFC 8058), sent as `List-Unsubscribe` with `List-Unsubscribe-Post: List-Unsubscribe=One-Click`.
   */
  listUnsubscribe?: string;
}

export const MAIL_KEY_MAX = 120;
const SUBJECT_MAX = 200;

/** One line (headers.ts), at most SUBJECT_MAX characters. */
export function subjectLine(text: string): string {
  const line = oneLine(text);
  return line.length > SUBJECT_MAX ? `${line.slice(0, SUBJECT_MAX - 1)}…` : line;
}

/**
 * Writes the mail in `db`, which should be the transaction of what caused it: the mail exists if and
 * only if that change committed. A second mail with the same key is ignored (a replayed event). A
 * `to` that is not one plain address is written as failed, never sent: refused without undoing the
 * change that caused it (a payment settled, a report decided).
 */
export async function enqueueMail(db: Knex, mail: OutgoingMail, now: number): Promise<void> {
  if (mail.key.length === 0 || mail.key.length > MAIL_KEY_MAX)
    throw new Error(`mail key must be 1-${MAIL_KEY_MAX} characters: ${mail.key.slice(0, 40)}`);
  if (!mail.to || mail.to.length > 254) throw new Error(`mail ${mail.key} has no usable address`);
  const plain = isPlainAddress(mail.to);
  await db('mail_outbox')
    .insert({
      mail_key: mail.key,
      to_address: mail.to,
      template: mail.template.slice(0, 40),
      subject: subjectLine(mail.subject),
      text_body: mail.text,
      html_body: mail.html,
      list_unsubscribe: mail.listUnsubscribe ?? null,
      status: plain ? 'pending' : 'failed',
      attempts: 0,
      created_at: now,
      next_attempt_at: now,
      ...(plain ? {} : { last_error: ADDRESS_REFUSED }),
    })
    .onConflict('mail_key')
    .ignore();
}

// The sending side: a worker (in each bff that runs one) claims due rows under a lease, sends them
// and marks the outcome. Rows are never deleted; a sender that dies mid-send leaves its rows to be
// claimed again once the lease has passed.

/** A row as the worker sends it. */
export interface QueuedMail {
  id: number;
  key: string;
  to: string;
  template: string;
  subject: string;
  text: string;
  html: string;
  /** List-Unsubscribe's address, for a mail that has one. */
  listUnsubscribe: string | null;
  attempts: number;
  createdAt: number;
}

interface OutboxRow {
  id: number | string;
  mail_key: string;
  to_address: string;
  template: string;
  subject: string;
  text_body: string;
  html_body: string;
  list_unsubscribe: string | null;
  attempts: number | string;
  created_at: number | string;
}

const ERROR_MAX = 300;

/** Pending, due, and not under another sender's lease at `now`. */
const due = (db: Knex, now: number) =>
  db('mail_outbox')
    .where('status', 'pending')
    .andWhere('next_attempt_at', '<=', now)
    .andWhere((q) => void q.whereNull('claimed_until').orWhere('claimed_until', '<', now));

/**
 * Claims up to `limit` due mails, oldest first, each until `now + leaseMs`, so that two senders on
 * the same database never both send a row: on MariaDB/MySQL by locking reads that skip rows another
 * sender holds, on SQLite by a conditional UPDATE per row whose affected-row count says whether this
 * sender won it. One transaction per batch: one commit (one log flush), not one per mail.
 */
export async function claimDueMails(db: Knex, now: number, limit: number, leaseMs: number): Promise<QueuedMail[]> {
  if (await queuePaused(db, 'mail')) return [];
  return db.transaction((trx) =>
    db.client.config.client === 'mysql2' ? claimLocked(trx, now, limit, leaseMs) : claimIn(trx, now, limit, leaseMs),
  );
}

const COLUMNS = [
  'id',
  'mail_key',
  'to_address',
  'template',
  'subject',
  'text_body',
  'html_body',
  'list_unsubscribe',
  'attempts',
  'created_at',
];

/**
 * MariaDB/MySQL: the due rows locked as they are read, skipping those another sender holds, then
 * claimed in one statement (three round trips per batch instead of one per mail).
 */
async function claimLocked(trx: Knex.Transaction, now: number, limit: number, leaseMs: number): Promise<QueuedMail[]> {
  const rows = await due(trx, now).orderBy('id').limit(limit).forUpdate().skipLocked().select<OutboxRow[]>(COLUMNS);
  if (rows.length === 0) return [];
  await trx('mail_outbox')
    .whereIn(
      'id',
      rows.map((r) => r.id),
    )
    .update({ claimed_until: now + leaseMs });
  return rows.map(queued);
}

const queued = (row: OutboxRow): QueuedMail => ({
  id: Number(row.id),
  key: row.mail_key,
  to: row.to_address,
  template: row.template,
  subject: row.subject,
  text: row.text_body,
  html: row.html_body,
  listUnsubscribe: row.list_unsubscribe ?? null,
  attempts: Number(row.attempts),
  createdAt: Number(row.created_at),
});

async function claimIn(db: Knex, now: number, limit: number, leaseMs: number): Promise<QueuedMail[]> {
  const candidates = await due(db, now).orderBy('id').limit(limit).select<OutboxRow[]>(COLUMNS);
  const claimed: QueuedMail[] = [];
  for (const row of candidates) {
    const won = await due(db, now)
      .andWhere('id', row.id)
      .update({ claimed_until: now + leaseMs });
    if (won === 1) claimed.push(queued(row));
  }
  return claimed;
}

const pendingRow = (db: Knex, id: number) => db('mail_outbox').where({ id, status: 'pending' });

/** The relay accepted these: one statement for a batch's worth. */
export async function markSent(db: Knex, ids: readonly number[], now: number): Promise<void> {
  if (ids.length === 0) return;
  await db('mail_outbox')
    .whereIn('id', ids)
    .andWhere('status', 'pending')
    .update({ status: 'sent', sent_at: now, claimed_until: null, attempts: db.raw('attempts + 1'), last_error: null });
}

/** A temporary refusal of this mail: counts an attempt and tries again at `nextAttemptAt`. */
export async function markRetry(db: Knex, id: number, nextAttemptAt: number, error: string): Promise<void> {
  await pendingRow(db, id).update({
    attempts: db.raw('attempts + 1'),
    next_attempt_at: nextAttemptAt,
    claimed_until: null,
    last_error: error.slice(0, ERROR_MAX),
  });
}

/** The relay could not be reached: the mail is not at fault, so no attempt is counted. */
export async function releaseClaim(db: Knex, id: number, error: string): Promise<void> {
  await pendingRow(db, id).update({ claimed_until: null, last_error: error.slice(0, ERROR_MAX) });
}

/** A permanent refusal (the relay rejected this recipient or message): kept, never sent again. */
export async function markFailed(db: Knex, id: number, now: number, error: string): Promise<void> {
  await pendingRow(db, id).update({
    status: 'failed',
    attempts: db.raw('attempts + 1'),
    claimed_until: null,
    sent_at: null,
    next_attempt_at: now,
    last_error: error.slice(0, ERROR_MAX),
  });
}

/** How long the oldest mail not yet sent has waited (0 with none waiting). */
export async function oldestUnsentAgeMs(db: Knex, now: number): Promise<number> {
  const row = (await db('mail_outbox').where('status', 'pending').min({ oldest: 'created_at' }).first()) as
    { oldest: number | string | null } | undefined;
  return row?.oldest === null || row?.oldest === undefined ? 0 : Math.max(0, now - Number(row.oldest));
}

export interface OutboxCounts {
  pending: number;
  sent: number;
  failed: number;
}

export async function outboxCounts(db: Knex): Promise<OutboxCounts> {
  const rows = (await db('mail_outbox').select('status').count({ n: '*' }).groupBy('status')) as Array<{
    status: string;
    n: number | string;
  }>;
  const counts: OutboxCounts = { pending: 0, sent: 0, failed: 0 };
  for (const { status, n } of rows) if (status in counts) counts[status as keyof OutboxCounts] = Number(n);
  return counts;
}
