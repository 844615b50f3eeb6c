import type { Knex } from 'knex';
import { ReportRuleError } from './errors';
import type { AppealDecision, Outcome, ReportReason } from '@media-site/contracts/report-vocabulary';

export interface ReportRow {
  id: number;
  reference: string;
  content_url: string;
  reason: ReportReason;
  details: string;
  reporter_email: string | null;
  created_at: number;
  acknowledged_at: number | null;
  acknowledged_by: string | null;
  resolved_at: number | null;
  resolved_by: string | null;
  outcome: Outcome | null;
  resolution_note: string | null;
  appealed_at: number | null;
  appeal_text: string | null;
  appeal_email: string | null;
  appeal_decided_at: number | null;
  appeal_decided_by: string | null;
  appeal_decision: AppealDecision | null;
  appeal_note: string | null;
}

const TIMES = ['created_at', 'acknowledged_at', 'resolved_at', 'appealed_at', 'appeal_decided_at'] as const;

// mysql2 returns bigint columns as strings.
function toReport(row: Record<string, unknown>): ReportRow {
  const out = { ...row, id: Number(row.id) } as Record<string, unknown>;
  for (const t of TIMES) out[t] = row[t] === null || row[t] === undefined ? null : Number(row[t]);
  return out as unknown as ReportRow;
}

type Db = Knex | Knex.Transaction;

export async function insertReport(
  db: Db,
  r: { reference: string; contentUrl: string; reason: ReportReason; details: string; email: string | null; now: number },
): Promise<void> {
  await db('content_reports').insert({
    reference: r.reference,
    content_url: r.contentUrl,
    reason: r.reason,
    details: r.details,
    reporter_email: r.email,
    created_at: r.now,
  });
}

export async function reportByReference(db: Db, reference: string): Promise<ReportRow | undefined> {
  const row = await db('content_reports').where({ reference }).first();
  return row ? toReport(row) : undefined;
}

async function mustFind(db: Db, reference: string): Promise<ReportRow> {
  const report = await reportByReference(db, reference);
  if (!report) throw new ReportRuleError('not_found', `no report ${reference}`);
  return report;
}

/** Reports with a step still pending: not resolved, or an appeal not yet decided. */
export async function openReports(db: Db): Promise<ReportRow[]> {
  const rows = await db('content_reports')
    .whereNull('resolved_at')
    .orWhere((q) => q.whereNotNull('appealed_at').whereNull('appeal_decided_at'))
    .orderBy('created_at')
    .orderBy('id');
  return rows.map(toReport);
}

/** Reports received in [from, to), oldest first: the monthly export. */
export async function reportsReceived(db: Db, from: number, to: number): Promise<ReportRow[]> {
  const rows = await db('content_reports').where('created_at', '>=', from).where('created_at', '<', to).orderBy('created_at').orderBy('id');
  return rows.map(toReport);
}

export async function acknowledgeReport(db: Db, reference: string, by: string, now: number): Promise<ReportRow> {
  const report = await mustFind(db, reference);
  if (report.acknowledged_at !== null) throw new ReportRuleError('conflict', `${reference} was acknowledged already`);
  await db('content_reports').where({ id: report.id }).update({ acknowledged_at: now, acknowledged_by: by });
  return mustFind(db, reference);
}

/** Resolving also acknowledges a report nobody acknowledged yet: the reporter got an answer. */
export async function resolveReport(
  db: Db,
  reference: string,
  r: { outcome: Outcome; note: string; by: string; now: number },
): Promise<ReportRow> {
  const report = await mustFind(db, reference);
  if (report.resolved_at !== null) throw new ReportRuleError('conflict', `${reference} was resolved already`);
  await db('content_reports')
    .where({ id: report.id })
    .update({
      resolved_at: r.now,
      resolved_by: r.by,
      outcome: r.outcome,
      resolution_note: r.note,
      ...(report.acknowledged_at === null ? { acknowledged_at: r.now, acknowledged_by: r.by } : {}),
    });
  return mustFind(db, reference);
}

/** One appeal per report, and only against a decision. */
export async function recordAppeal(db: Db, reference: string, a: { text: string; email: string | null; now: number }): Promise<ReportRow> {
  const report = await mustFind(db, reference);
  if (report.resolved_at === null)
    throw new ReportRuleError('conflict', 'this report has not been decided yet; an appeal is possible once it has');
  if (report.appealed_at !== null) throw new ReportRuleError('conflict', 'an appeal for this report was received already');
  const changed = await db('content_reports')
    .where({ id: report.id })
    .whereNull('appealed_at')
    .update({ appealed_at: a.now, appeal_text: a.text, appeal_email: a.email });
  if (changed === 0) throw new ReportRuleError('conflict', 'an appeal for this report was received already');
  return mustFind(db, reference);
}

export async function decideAppeal(
  db: Db,
  reference: string,
  d: { decision: AppealDecision; note: string; by: string; now: number },
): Promise<ReportRow> {
  const report = await mustFind(db, reference);
  if (report.appealed_at === null) throw new ReportRuleError('conflict', `${reference} has no appeal`);
  if (report.appeal_decided_at !== null) throw new ReportRuleError('conflict', `the appeal on ${reference} was decided already`);
  await db('content_reports')
    .where({ id: report.id })
    .update({ appeal_decided_at: d.now, appeal_decided_by: d.by, appeal_decision: d.decision, appeal_note: d.note });
  return mustFind(db, reference);
}
