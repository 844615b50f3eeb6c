import {
  APPEAL_BUSINESS_DAYS,
  appealReceivedNotice,
  deadlinesOf,
  type HolidayList,
  insertReport,
  newReference,
  recordAppeal,
  reportByReference,
  reportReceivedNotice,
  type ReportRow,
  ReportRuleError,
} from '@media-site/db/moderation';
import type { MailSite } from '@media-site/db/mail';
import type { Knex } from 'knex';
import { AppError, BadRequestError, ConflictError, NotFoundError } from '../../../errors';
import { nudgeMail } from '../../../mail/worker';
import type { AppealBody, ReportBody } from './schema';
import { isoTime } from '@media-site/contracts/iso-time';
import type { ReportStatus } from '@media-site/contracts/member-api';

export interface ReportDeps {
  knex: Knex;
  now: () => number;
  /** `site`: what the acknowledgement calls the site and where its status link points. */
  settings: { reportHolidays: HolidayList; site: MailSite };
}

const iso = (ms: number | null) => isoTime(ms, null);
const isoAt = (ms: number) => isoTime(ms, '');

function toAppError(err: unknown): unknown {
  if (!(err instanceof ReportRuleError)) return err;
  if (err.kind === 'not_found') return new NotFoundError('no report with that reference');
  return err.kind === 'conflict' ? new ConflictError(err.message) : new BadRequestError(err.message);
}

/** What the reporter may see by reference: dates and outcome, never the details or e-mail addresses. */
export function publicView(r: ReportRow, holidays: HolidayList): ReportStatus {
  const d = deadlinesOf(r, holidays);
  return {
    reference: r.reference,
    receivedAt: isoAt(r.created_at),
    acknowledgeBy: isoAt(d.acknowledgeBy),
    acknowledgedAt: iso(r.acknowledged_at),
    resolveBy: isoAt(d.resolveBy),
    resolvedAt: iso(r.resolved_at),
    outcome: r.outcome,
    appealedAt: iso(r.appealed_at),
    appealDecideBy: iso(d.appealDecideBy),
    appealDecision: r.appeal_decision,
    appealBusinessDays: APPEAL_BUSINESS_DAYS,
    canAppeal: r.resolved_at !== null && r.appealed_at === null,
  };
}

export async function submitReport(deps: ReportDeps, body: ReportBody) {
  const now = deps.now();
  // 50 random bits: a collision is practically impossible, but a unique index would turn one into a 500.
  for (let attempt = 0; ; attempt++) {
    const reference = newReference();
    try {
      const report = await deps.knex.transaction(async (trx) => {
        await insertReport(trx, {
          reference,
          contentUrl: body.content,
          reason: body.reason,
          details: body.details,
          email: body.email ?? null,
          now,
        });
        const stored = await reportByReference(trx, reference);
        if (!stored) throw new AppError('internal', 'report not stored');
        await reportReceivedNotice(trx, deps.settings.site, stored, deps.settings.reportHolidays);
        return stored;
      });
      nudgeMail();
      return publicView(report, deps.settings.reportHolidays);
    } catch (err) {
      if (attempt < 2 && /DUP_ENTRY|CONSTRAINT_UNIQUE/.test(String((err as { code?: unknown }).code ?? ''))) continue;
      throw err;
    }
  }
}

export async function reportStatus(deps: ReportDeps, reference: string) {
  const report = await reportByReference(deps.knex, reference);
  if (!report) throw new NotFoundError('no report with that reference');
  return publicView(report, deps.settings.reportHolidays);
}

export async function submitAppeal(deps: ReportDeps, reference: string, body: AppealBody) {
  const now = deps.now();
  try {
    const report = await deps.knex.transaction(async (trx) => {
      const appealed = await recordAppeal(trx, reference, { text: body.text, email: body.email ?? null, now });
      await appealReceivedNotice(trx, deps.settings.site, appealed, deps.settings.reportHolidays);
      return appealed;
    });
    nudgeMail();
    return publicView(report, deps.settings.reportHolidays);
  } catch (err) {
    throw toAppError(err);
  }
}
