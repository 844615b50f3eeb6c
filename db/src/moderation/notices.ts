import type { Knex } from 'knex';
import { enqueueMail, isPlainAddress, type MailSite, type RenderedMail } from '../mail';
import { appealOutcomeMail, appealReceivedMail, reportOutcomeMail, reportReceivedMail } from '../mail/templates';
import type { HolidayList } from './business-days';
import { APPEAL_BUSINESS_DAYS, deadlinesOf } from './deadlines';
import type { ReportRow } from './repository';

// The mails of a report's life, each written in the transaction of the step that causes it and keyed
// by the report's reference and step, so a step recorded once mails once. Only to the addresses
// the reporter or appellant gave; an address that could never be delivered is skipped, never an error
// that would undo the decision.

const usable = (address: string | null): address is string => address !== null && isPlainAddress(address);

/** Queues the mail of one step of report `r` to `to`, keyed `report:<reference>:<step>`. */
function queueStepMail(db: Knex, r: ReportRow, step: string, to: string, template: string, mail: RenderedMail, at: number): Promise<void> {
  return enqueueMail(db, { key: `report:${r.reference}:${step}`, to, template, ...mail }, at);
}

export async function reportReceivedNotice(db: Knex, site: MailSite, r: ReportRow, holidays: HolidayList): Promise<void> {
  if (!usable(r.reporter_email)) return;
  const d = deadlinesOf(r, holidays);
  const mail = reportReceivedMail(site, {
    reference: r.reference,
    receivedAt: r.created_at,
    acknowledgeBy: d.acknowledgeBy,
    resolveBy: d.resolveBy,
    appealBusinessDays: APPEAL_BUSINESS_DAYS,
  });
  await queueStepMail(db, r, 'received', r.reporter_email, 'report-received', mail, r.created_at);
}

export async function appealReceivedNotice(db: Knex, site: MailSite, r: ReportRow, holidays: HolidayList): Promise<void> {
  const decideBy = deadlinesOf(r, holidays).appealDecideBy;
  if (!usable(r.appeal_email) || r.appealed_at === null || decideBy === null) return;
  const mail = appealReceivedMail(site, { reference: r.reference, appealedAt: r.appealed_at, decideBy });
  await queueStepMail(db, r, 'appeal-received', r.appeal_email, 'appeal-received', mail, r.appealed_at);
}

export async function outcomeNotice(db: Knex, site: MailSite, r: ReportRow): Promise<void> {
  if (!usable(r.reporter_email) || r.outcome === null || r.resolved_at === null) return;
  const mail = reportOutcomeMail(site, {
    reference: r.reference,
    outcome: r.outcome,
    resolvedAt: r.resolved_at,
    appealBusinessDays: APPEAL_BUSINESS_DAYS,
  });
  await queueStepMail(db, r, 'resolved', r.reporter_email, 'report-outcome', mail, r.resolved_at);
}

/** To the appellant, and to the reporter too when that is someone else: the first decision may have changed. */
export async function appealDecisionNotices(db: Knex, site: MailSite, r: ReportRow): Promise<void> {
  if (r.appeal_decision === null || r.appeal_decided_at === null) return;
  const mail = appealOutcomeMail(site, { reference: r.reference, decision: r.appeal_decision, decidedAt: r.appeal_decided_at });
  const to = new Map([r.reporter_email, r.appeal_email].filter(usable).map((a) => [a.toLowerCase(), a] as const));
  for (const [i, address] of [...to.values()].entries()) {
    await queueStepMail(db, r, `appeal-decided:${i}`, address, 'appeal-outcome', mail, r.appeal_decided_at);
  }
}
