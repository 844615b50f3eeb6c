import { addBusinessDays, NO_HOLIDAYS, type HolidayList } from './business-days';

// Spec §9 and the /contact page: what the site promises every reporter.
export const ACKNOWLEDGE_HOURS = 48;
export const RESOLVE_BUSINESS_DAYS = 7;
export const APPEAL_BUSINESS_DAYS = 14;

export interface DeadlineInput {
  created_at: number;
  acknowledged_at: number | null;
  resolved_at: number | null;
  appealed_at: number | null;
  appeal_decided_at: number | null;
}

export interface Deadlines {
  acknowledgeBy: number;
  resolveBy: number;
  appealDecideBy: number | null;
}

export type DeadlineName = 'acknowledge' | 'resolve' | 'appeal';

export function deadlinesOf(report: DeadlineInput, holidays: HolidayList = NO_HOLIDAYS): Deadlines {
  return {
    acknowledgeBy: report.created_at + ACKNOWLEDGE_HOURS * 3_600_000,
    resolveBy: addBusinessDays(report.created_at, RESOLVE_BUSINESS_DAYS, holidays),
    appealDecideBy: report.appealed_at === null ? null : addBusinessDays(report.appealed_at, APPEAL_BUSINESS_DAYS, holidays),
  };
}

function lateSteps(report: DeadlineInput, now: number, holidays: HolidayList, pendingOnly: boolean): DeadlineName[] {
  const d = deadlinesOf(report, holidays);
  const late = (doneAt: number | null, by: number) => (doneAt === null ? now > by : !pendingOnly && doneAt > by);
  const names: DeadlineName[] = [];
  if (late(report.acknowledged_at, d.acknowledgeBy)) names.push('acknowledge');
  if (late(report.resolved_at, d.resolveBy)) names.push('resolve');
  if (d.appealDecideBy !== null && late(report.appeal_decided_at, d.appealDecideBy)) names.push('appeal');
  return names;
}

/** Steps still pending past their deadline: what the operator must do first. */
export function overdue(report: DeadlineInput, now: number, holidays: HolidayList = NO_HOLIDAYS): DeadlineName[] {
  return lateSteps(report, now, holidays, true);
}

/** Every promise broken: pending past the deadline, or done after it (the export's record). */
export function missed(report: DeadlineInput, now: number, holidays: HolidayList = NO_HOLIDAYS): DeadlineName[] {
  return lateSteps(report, now, holidays, false);
}

/** The next deadline still open (for sorting the operator's queue), or null when nothing is pending. */
export function nextDeadline(report: DeadlineInput, holidays: HolidayList = NO_HOLIDAYS): number | null {
  const d = deadlinesOf(report, holidays);
  const pending: number[] = [];
  if (report.acknowledged_at === null) pending.push(d.acknowledgeBy);
  if (report.resolved_at === null) pending.push(d.resolveBy);
  if (d.appealDecideBy !== null && report.appeal_decided_at === null) pending.push(d.appealDecideBy);
  return pending.length ? Math.min(...pending) : null;
}
