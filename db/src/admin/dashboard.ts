import type { Knex } from 'knex';
import { mediaListPolls, type MediaListPoll } from './media-lists';
import { isSqlite } from '../knex';
import { AdminRuleError } from './errors';
import { NO_HOLIDAYS, nextDeadline, overdue, openReports, type HolidayList } from '../moderation';
import { backupStatus, type BackupStatus } from '../backup/runs';

// The console's dashboard: figures per UTC day over the last `days` days, read in a
// handful of bounded queries. Each section is read only when the caller's role may see it.
//
// Indexes (checked with EXPLAIN on MariaDB): payment_attempts (status, created_at) for revenue;
// media_jobs (status, run_after, id) for the encode queue and failed encodes; purge_outbox (done_at,
// next_attempt_at) for pending purges; mail_outbox (status, next_attempt_at) for failed mail.
// Without an index on time, one pass each over: members (created_at), subscriptions (running
// memberships), webhook_events (received_at: cancellations, chargebacks, renewals) and the open
// reports (openReports' OR of resolved and appealed, as the Reports screen reads them).

export const DAY_MS = 86_400_000;
export const DASHBOARD_DAYS_MIN = 1;
export const DASHBOARD_DAYS_MAX = 90;
export const DASHBOARD_DAYS_DEFAULT = 30;
const WHOLE = `days: a whole number from ${DASHBOARD_DAYS_MIN} to ${DASHBOARD_DAYS_MAX}`;

/**
 * The one rule for the window, the console's `?days=` and the CLI's `--days` alike: absent is the
 * default; at most two digits, checked before any number is made of the text.
 */
export function dashboardDays(text: string | undefined): number {
  if (text === undefined) return DASHBOARD_DAYS_DEFAULT;
  if (text.length > 2 || !/^\d+$/.test(text)) throw new AdminRuleError('bad_input', WHOLE);
  const days = Number(text);
  if (days < DASHBOARD_DAYS_MIN) throw new AdminRuleError('bad_input', `days: at least ${DASHBOARD_DAYS_MIN}`);
  if (days > DASHBOARD_DAYS_MAX) throw new AdminRuleError('bad_input', `days: at most ${DASHBOARD_DAYS_MAX}`);
  return days;
}
/** Errors shown: the newest of each kind the stack records in the database. */
export const RECENT_ERRORS = 10;

/** Money goes back to the card: what the webhook service treats as a chargeback (routes/api/webhooks). */
export const CHARGED_BACK_EVENTS = ['Chargeback', 'Refund', 'Return', 'Void'] as const;

export interface DashboardSections {
  members: boolean;
  payments: boolean;
  encode: boolean;
  reports: boolean;
  operations: boolean;
}

export interface MembersDay {
  day: string;
  /** Memberships running at the day's end (at `now` for today). */
  active: number;
  new: number;
  cancelled: number;
  chargedBack: number;
}

export interface RevenueDay {
  day: string;
  /** Cents (hundredths of the currency's unit): membership sign-ups, membership renewals, VODs. */
  membership: number;
  renewals: number;
  vod: number;
}

export interface Revenue {
  currencyCode: number;
  days: RevenueDay[];
  totalMembership: number;
  totalRenewals: number;
  totalVod: number;
}

export interface EncodeQueue {
  queued: number;
  running: number;
  failed: number;
  /** Queued again after a failed try. */
  retrying: number;
}

export interface ReportsDue {
  open: number;
  dueToday: number;
  overdue: number;
}

export interface PendingPurge {
  pending: number;
  /** The oldest pending purge: when it was queued, how often it was tried, its last error. */
  oldest: { id: number; event: string; createdAt: number; attempts: number; lastError: string | null } | null;
}

export interface RecordedError {
  at: number;
  source: 'encode' | 'mail' | 'purge';
  subject: string;
  text: string;
}

export interface Dashboard {
  now: number;
  days: string[];
  members?: MembersDay[];
  revenue?: Revenue[];
  encode?: EncodeQueue;
  reports?: ReportsDue;
  purge?: PendingPurge;
  /** When each media service last fetched its revocation and takedown lists (migration 019). */
  mediaLists?: MediaListPoll[];
  /** The last good backup set and a failure since (migration 025). */
  backup?: BackupStatus;
  errors?: RecordedError[];
}

export interface DashboardQuery {
  days: number;
  now: number;
  sections: DashboardSections;
  holidays?: HolidayList;
}

const dayName = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The first millisecond of each of the last `days` UTC days, oldest first (today last). */
export function dayStarts(days: number, now: number): number[] {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  return Array.from({ length: days }, (_, i) => today - (days - 1 - i) * DAY_MS);
}

/** The index of a row's day in the window (rows are at or after `since`, so truncating is flooring). */
function bucket(db: Knex, column: string, since: number): Knex.Raw {
  // better-sqlite3 binds a number this large as a REAL: the division is not an integer one there.
  return isSqlite(db)
    ? db.raw(`cast((?? - ?) / ${DAY_MS} as integer)`, [column, since])
    : db.raw(`(?? - ?) DIV ${DAY_MS}`, [column, since]);
}

const num = (value: unknown) => Number(value ?? 0);

async function countPerDay(
  db: Knex,
  query: Knex.QueryBuilder,
  column: string,
  since: number,
  until: number,
  days: number,
): Promise<number[]> {
  const rows = (await query
    .where(column, '>=', since)
    .where(column, '<', until)
    .select(bucket(db, column, since).wrap('(', ') as d'))
    .count({ n: '*' })
    .groupBy('d')) as { d: unknown; n: unknown }[];
  const counts = new Array<number>(days).fill(0);
  for (const row of rows) {
    const i = num(row.d);
    if (i >= 0 && i < days) counts[i] = num(row.n);
  }
  return counts;
}

async function membersPerDay(db: Knex, starts: number[], now: number): Promise<MembersDay[]> {
  const since = starts[0]!;
  const until = starts[starts.length - 1]! + DAY_MS;
  const ends = starts.map((s) => Math.min(s + DAY_MS, now));
  // One pass: a column per day, each counting the memberships that ran at that day's end.
  const active = ends.map((end, i) =>
    db.raw(`sum(case when created_at < ? and (paid_until is null or paid_until >= ?) then 1 else 0 end) as ??`, [end, end, `a${i}`]),
  );
  const [activeRow] = (await db('subscriptions')
    .where({ kind: 'membership' })
    .where('created_at', '<', until)
    .where((q) => q.whereNull('paid_until').orWhere('paid_until', '>=', since))
    .select(active)) as Record<string, unknown>[];
  const [joined, cancelled, chargedBack] = await Promise.all([
    countPerDay(db, db('members'), 'created_at', since, until, starts.length),
    countPerDay(db, db('webhook_events').where({ event_type: 'Cancellation' }), 'received_at', since, until, starts.length),
    countPerDay(db, db('webhook_events').whereIn('event_type', [...CHARGED_BACK_EVENTS]), 'received_at', since, until, starts.length),
  ]);
  return starts.map((s, i) => ({
    day: dayName(s),
    active: num(activeRow?.[`a${i}`]),
    new: joined[i]!,
    cancelled: cancelled[i]!,
    chargedBack: chargedBack[i]!,
  }));
}

interface RevenueRow {
  d: unknown;
  kind: string;
  currency_code: unknown;
  total: unknown;
}

/**
 * Renewals billed (the provider's RenewalSuccess events) per day and currency. The amount is only in
 * the stored payload (billedAmount, else amount); the currency is the subscription's first attempt's.
 */
async function renewalsPerDay(db: Knex, since: number, until: number): Promise<RevenueRow[]> {
  const sqlite = isSqlite(db);
  const field = (name: string) => (sqlite ? `json_extract(payload, '$.${name}')` : `json_value(payload, '$.${name}')`);
  const amount = `cast(coalesce(${field('billedAmount')}, ${field('amount')}) as ${sqlite ? 'real' : 'decimal(14,2)'})`;
  return (await db('webhook_events')
    .where({ event_type: 'RenewalSuccess' })
    .where('received_at', '>=', since)
    .where('received_at', '<', until)
    .select(
      bucket(db, 'received_at', since).wrap('(', ') as d'),
      db.raw(`'renewal' as kind`),
      db.raw(
        '(select pa.currency_code from payment_attempts pa where pa.provider_subscription_id = webhook_events.subscription_id order by pa.id limit 1) as currency_code',
      ),
      db.raw(`sum(${amount}) as total`),
    )
    .groupBy('d', 'currency_code')) as RevenueRow[];
}

/** Money in per day, product and currency, in cents: approved sign-ups and VOD purchases, and renewals. */
async function revenuePerDay(db: Knex, starts: number[]): Promise<Revenue[]> {
  const since = starts[0]!;
  const until = starts[starts.length - 1]! + DAY_MS;
  const amount = isSqlite(db) ? db.raw('sum(cast(amount as real)) as total') : db.raw('sum(cast(amount as decimal(14,2))) as total');
  const [payments, renewals] = await Promise.all([
    db('payment_attempts')
      .where({ status: 'approved' })
      .where('created_at', '>=', since)
      .where('created_at', '<', until)
      .select(bucket(db, 'created_at', since).wrap('(', ') as d'), 'kind', 'currency_code', amount)
      .groupBy('d', 'kind', 'currency_code') as Promise<RevenueRow[]>,
    renewalsPerDay(db, since, until),
  ]);
  const byCurrency = new Map<number, Revenue>();
  for (const row of [...payments, ...renewals]) {
    const code = num(row.currency_code);
    let revenue = byCurrency.get(code);
    if (!revenue) {
      revenue = {
        currencyCode: code,
        days: starts.map((s) => ({ day: dayName(s), membership: 0, renewals: 0, vod: 0 })),
        totalMembership: 0,
        totalRenewals: 0,
        totalVod: 0,
      };
      byCurrency.set(code, revenue);
    }
    const day = revenue.days[num(row.d)];
    if (!day) continue;
    const cents = Math.round(num(row.total) * 100);
    if (row.kind === 'vod') {
      day.vod += cents;
      revenue.totalVod += cents;
    } else if (row.kind === 'renewal') {
      day.renewals += cents;
      revenue.totalRenewals += cents;
    } else {
      day.membership += cents;
      revenue.totalMembership += cents;
    }
  }
  return [...byCurrency.values()].sort((a, b) => a.currencyCode - b.currencyCode);
}

async function encodeQueue(db: Knex): Promise<EncodeQueue> {
  const rows = (await db('media_jobs')
    .whereIn('status', ['queued', 'running', 'failed'])
    .select('status', db.raw('count(*) as n'), db.raw('sum(case when attempts > 0 then 1 else 0 end) as tried'))
    .groupBy('status')) as { status: string; n: unknown; tried: unknown }[];
  const of = (status: string) => rows.find((r) => r.status === status);
  return {
    queued: num(of('queued')?.n),
    running: num(of('running')?.n),
    failed: num(of('failed')?.n),
    retrying: num(of('queued')?.tried),
  };
}

async function reportsDue(db: Knex, now: number, holidays: HolidayList): Promise<ReportsDue> {
  const endOfToday = Math.floor(now / DAY_MS) * DAY_MS + DAY_MS;
  const reports = await openReports(db);
  let dueToday = 0;
  let late = 0;
  for (const report of reports) {
    if (overdue(report, now, holidays).length > 0) late += 1;
    else {
      const next = nextDeadline(report, holidays);
      if (next !== null && next < endOfToday) dueToday += 1;
    }
  }
  return { open: reports.length, dueToday, overdue: late };
}

async function pendingPurge(db: Knex): Promise<PendingPurge> {
  const pending = db('purge_outbox').whereNull('done_at');
  const [count] = (await pending.clone().count({ n: '*' })) as { n: unknown }[];
  const oldest = await pending.clone().orderBy('id').first('id', 'event', 'created_at', 'attempts', 'last_error');
  return {
    pending: num(count?.n),
    oldest: oldest
      ? {
          id: num(oldest.id),
          event: String(oldest.event),
          createdAt: num(oldest.created_at),
          attempts: num(oldest.attempts),
          lastError: oldest.last_error === null ? null : String(oldest.last_error),
        }
      : null,
  };
}

/**
 * What the stack records of its failures in the database: failed encodes, mail given up on, and
 * purges still retrying with an error. Application logs (pino, stdout) are not in the database.
 */
async function recentErrors(db: Knex): Promise<RecordedError[]> {
  const [jobs, mails, purges] = await Promise.all([
    db('media_jobs')
      .where({ status: 'failed' })
      .orderBy('updated_at', 'desc')
      .limit(RECENT_ERRORS)
      .select('content_type', 'path', 'error', 'updated_at'),
    db('mail_outbox')
      .where({ status: 'failed' })
      .orderBy('next_attempt_at', 'desc')
      .limit(RECENT_ERRORS)
      .select('template', 'last_error', 'next_attempt_at'),
    db('purge_outbox')
      .whereNull('done_at')
      .whereNotNull('last_error')
      .orderBy('id', 'desc')
      .limit(RECENT_ERRORS)
      .select('id', 'event', 'last_error', 'created_at'),
  ]);
  const errors: RecordedError[] = [
    ...jobs.map((r) => ({
      at: num(r.updated_at),
      source: 'encode' as const,
      subject: `${String(r.content_type)} ${String(r.path)}`,
      text: String(r.error ?? 'failed'),
    })),
    ...mails.map((r) => ({
      at: num(r.next_attempt_at),
      source: 'mail' as const,
      subject: `${String(r.template)} mail`,
      text: String(r.last_error ?? 'failed'),
    })),
    ...purges.map((r) => ({
      at: num(r.created_at),
      source: 'purge' as const,
      subject: `${String(r.event)} purge ${num(r.id)}`,
      text: String(r.last_error),
    })),
  ];
  return errors.sort((a, b) => b.at - a.at).slice(0, RECENT_ERRORS);
}

/** The dashboard's figures for the sections asked for; `days` must be in 1..DASHBOARD_DAYS_MAX. */
export async function dashboard(db: Knex, q: DashboardQuery): Promise<Dashboard> {
  if (!Number.isInteger(q.days) || q.days < DASHBOARD_DAYS_MIN || q.days > DASHBOARD_DAYS_MAX) throw new AdminRuleError('bad_input', WHOLE);
  const starts = dayStarts(q.days, q.now);
  const { sections } = q;
  const [members, revenue, encode, reports, purge, mediaLists, backup, errors] = await Promise.all([
    sections.members ? membersPerDay(db, starts, q.now) : undefined,
    sections.payments ? revenuePerDay(db, starts) : undefined,
    sections.encode ? encodeQueue(db) : undefined,
    sections.reports ? reportsDue(db, q.now, q.holidays ?? NO_HOLIDAYS) : undefined,
    sections.operations ? pendingPurge(db) : undefined,
    sections.operations ? mediaListPolls(db, q.now) : undefined,
    sections.operations ? backupStatus(db, q.now) : undefined,
    sections.operations ? recentErrors(db) : undefined,
  ]);
  return { now: q.now, days: starts.map(dayName), members, revenue, encode, reports, purge, mediaLists, backup, errors };
}
