import type { Knex } from 'knex';
import {
  ACTOR_MAX,
  APPEAL_DECISIONS,
  DETAILS_MAX,
  EMAIL_MAX,
  NOTE_MAX,
  OUTCOMES,
  type AppealDecision,
  type Outcome,
} from '@media-site/contracts/report-vocabulary';
import { EMAIL } from '@media-site/contracts/member-rules';
import type { Actor } from '../admin/accounts';
import { appendAudit } from '../admin/audit';
import type { MailSite } from '../mail';
import { addBusinessDays, type HolidayList } from './business-days';
import { nextDeadline, overdue, type DeadlineName } from './deadlines';
import { ReportRuleError } from './errors';
import { appealDecisionNotices, appealReceivedNotice, outcomeNotice } from './notices';
import { acknowledgeReport, decideAppeal, recordAppeal, resolveReport, type ReportRow } from './repository';

// Handling a report: acknowledge, resolve, record an appeal, decide it. The one service under the
// operator CLI (`reports ack|resolve|appeal|decide`) and the console (/api/admin/reports/...): the
// same checks, the same mail, and the audit row in the same transaction as the change, so a change
// refused or rolled back leaves no row and no mail.

/** Who handles the report (`by`, kept on the report) and who to audit (an admin, or `cli:<user>`). */
interface Handler {
  by: string;
  now: number;
  audit: Actor;
}

/** A required text field of at most `max` characters, trimmed; `name` is how the caller spells it (`--note`, `note`). */
export function reportText(value: unknown, name: string, max: number): string {
  const text = typeof value === 'string' ? value.trim() : '';
  if (text === '') throw new ReportRuleError('bad_input', `${name} is required`);
  if (text.length > max) throw new ReportRuleError('bad_input', `${name} is longer than ${max} characters`);
  return text;
}

/** One of a fixed list, or a 400 that lists them. */
export function reportChoice<T extends string>(value: unknown, name: string, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !allowed.includes(value as T))
    throw new ReportRuleError('bad_input', `${name} must be one of ${allowed.join(', ')}`);
  return value as T;
}

/** An appellant's address when one was given (they get the acknowledgement and the decision), else null. */
export function appealEmailOf(value: unknown, name: string): string | null {
  const text = typeof value === 'string' ? value.trim() : '';
  if (text === '') return null;
  if (text.length > EMAIL_MAX || !EMAIL.test(text))
    throw new ReportRuleError('bad_input', `${name} must be an e-mail address of at most ${EMAIL_MAX} characters`);
  return text;
}

const checkBy = (by: string) => reportText(by, 'by', ACTOR_MAX);

async function audited(
  knex: Knex,
  action: string,
  reference: string,
  h: Handler,
  change: (trx: Knex.Transaction) => Promise<ReportRow>,
  after: unknown,
): Promise<ReportRow> {
  return knex.transaction(async (trx) => {
    const r = await change(trx);
    await appendAudit(trx, { ...h.audit, action, target: reference, after, at: h.now });
    return r;
  });
}

export function acknowledge(knex: Knex, reference: string, h: Handler): Promise<ReportRow> {
  const by = checkBy(h.by);
  return audited(knex, 'report.ack', reference, h, (trx) => acknowledgeReport(trx, reference, by, h.now), { by });
}

/** Decides a report (and acknowledges it if nobody had); the reporter's mail commits with it. */
export function resolve(
  knex: Knex,
  reference: string,
  d: { outcome: unknown; note: unknown; site: MailSite; names?: FieldNames } & Handler,
): Promise<ReportRow> {
  const n = d.names ?? PLAIN;
  const outcome = reportChoice<Outcome>(d.outcome, n('outcome'), OUTCOMES);
  const note = reportText(d.note, n('note'), NOTE_MAX);
  const by = checkBy(d.by);
  return audited(
    knex,
    'report.resolve',
    reference,
    d,
    async (trx) => {
      const r = await resolveReport(trx, reference, { outcome, note, by, now: d.now });
      await outcomeNotice(trx, d.site, r);
      return r;
    },
    { outcome, note, by },
  );
}

/** Records an appeal received another way (mail, phone); the appellant's acknowledgement commits with it. */
export function appeal(
  knex: Knex,
  reference: string,
  a: { text: unknown; email: unknown; site: MailSite; holidays: HolidayList; now: number; audit: Actor; names?: FieldNames },
): Promise<ReportRow> {
  const n = a.names ?? PLAIN;
  const text = reportText(a.text, n('text'), DETAILS_MAX);
  const email = appealEmailOf(a.email, n('email'));
  return knex.transaction(async (trx) => {
    const r = await recordAppeal(trx, reference, { text, email, now: a.now });
    await appealReceivedNotice(trx, a.site, r, a.holidays);
    await appendAudit(trx, { ...a.audit, action: 'report.appeal', target: reference, after: { text }, at: a.now });
    return r;
  });
}

/** Decides an appeal; the mails to the appellant (and the reporter) commit with it. */
export function decide(
  knex: Knex,
  reference: string,
  d: { decision: unknown; note: unknown; site: MailSite; names?: FieldNames } & Handler,
): Promise<ReportRow> {
  const n = d.names ?? PLAIN;
  const decision = reportChoice<AppealDecision>(d.decision, n('decision'), APPEAL_DECISIONS);
  const note = reportText(d.note, n('note'), NOTE_MAX);
  const by = checkBy(d.by);
  return audited(
    knex,
    'report.decide',
    reference,
    d,
    async (trx) => {
      const r = await decideAppeal(trx, reference, { decision, note, by, now: d.now });
      await appealDecisionNotices(trx, d.site, r);
      return r;
    },
    { decision, note, by },
  );
}

/** How a caller names a field in its messages: the CLI says `--note`, the API `note`. */
export type FieldNames = (field: string) => string;
const PLAIN: FieldNames = (field) => field;
export const CLI_FLAGS: FieldNames = (field) => `--${field}`;

/** Open reports, those with a broken promise first, then by their next deadline, then oldest first. */
export function queueOrder(reports: ReportRow[], at: number, holidays: HolidayList): ReportRow[] {
  const key = (r: ReportRow) => ({ late: overdue(r, at, holidays).length > 0 ? 0 : 1, next: nextDeadline(r, holidays) ?? Infinity });
  return [...reports].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return ka.late - kb.late || ka.next - kb.next || a.created_at - b.created_at;
  });
}

/**
 * Where a report stands against its promises: `overdue` (a pending step is past its deadline),
 * `due_soon` (the next deadline falls by the end of the next business day), or `on_time`; with the
 * steps late and the next deadline. The console colours it red / amber / green and says it in words.
 */
export interface Sla {
  state: 'overdue' | 'due_soon' | 'on_time';
  late: DeadlineName[];
  next: number | null;
}

export function slaOf(r: ReportRow, at: number, holidays: HolidayList): Sla {
  const late = overdue(r, at, holidays);
  const next = nextDeadline(r, holidays);
  if (late.length > 0) return { state: 'overdue', late, next };
  const soon = next !== null && next <= addBusinessDays(at, 1, holidays);
  return { state: soon ? 'due_soon' : 'on_time', late, next };
}
