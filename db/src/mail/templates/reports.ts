import type { AppealDecision, Outcome } from '@media-site/contracts/report-vocabulary';
import { composeMail, siteLink, type MailSite, type RenderedMail } from '../compose';

// Mails to whoever sent a content report or an appeal (docs/compliance.md): the acknowledgement
// with the reference and the promised dates, then the outcome. Never the report's details or the
// operator's notes: the mail says what the status page says.

const GREETING = 'Hello,';

/** Dates as the report pages state them: UTC, to the minute. */
const FORMAT = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });
export const reportDate = (ms: number): string => `${FORMAT.format(new Date(ms))} UTC`;

/** The SPA's status page for a report, which also holds its appeal form. */
const statusLink = (site: MailSite, reference: string) => ({
  link: siteLink(site, `/reports/${encodeURIComponent(reference)}/appeal`),
  label: 'See the status of your report',
});

// The same sentences as the status page (frontend/src/features/reports/reasons.ts).
const OUTCOME_TEXT: Record<Outcome, string> = {
  removed: 'The content was removed.',
  restricted: 'Access to the content was restricted.',
  edited: 'The content was edited.',
  no_action: 'No action was taken: the content complies with our policies and the law.',
};
const OUTCOME_SHORT: Record<Outcome, string> = {
  removed: 'content removed',
  restricted: 'access restricted',
  edited: 'content edited',
  no_action: 'no action taken',
};

export function reportReceivedMail(
  site: MailSite,
  m: { reference: string; receivedAt: number; acknowledgeBy: number; resolveBy: number; appealBusinessDays: number },
): RenderedMail {
  return composeMail(site, `We received your report ${m.reference}`, GREETING, [
    `Thank you for your report, received ${reportDate(m.receivedAt)}. Its reference is ${m.reference}: keep it to follow up or to appeal.`,
    {
      rows: [
        ['Reference', m.reference],
        ['Acknowledged by', reportDate(m.acknowledgeBy)],
        ['Resolved by', reportDate(m.resolveBy)],
      ],
    },
    `What happens next: we review the content and decide within seven business days. We write to this address with the outcome. If you disagree with it, you can appeal on the status page; appeals are decided within ${m.appealBusinessDays} business days.`,
    statusLink(site, m.reference),
    'If you did not send this report, ignore this mail.',
  ]);
}

export function appealReceivedMail(site: MailSite, m: { reference: string; appealedAt: number; decideBy: number }): RenderedMail {
  return composeMail(site, `We received your appeal on ${m.reference}`, GREETING, [
    `Your appeal on report ${m.reference} was received ${reportDate(m.appealedAt)}. Someone who did not take the first decision reviews it.`,
    {
      rows: [
        ['Reference', m.reference],
        ['Decided by', reportDate(m.decideBy)],
      ],
    },
    'We write to this address with the decision.',
    statusLink(site, m.reference),
  ]);
}

export function reportOutcomeMail(
  site: MailSite,
  m: { reference: string; outcome: Outcome; resolvedAt: number; appealBusinessDays: number },
): RenderedMail {
  return composeMail(site, `Your report ${m.reference}: ${OUTCOME_SHORT[m.outcome]}`, GREETING, [
    `We decided on your report ${m.reference} on ${reportDate(m.resolvedAt)}. ${OUTCOME_TEXT[m.outcome]}`,
    `If you disagree, you can appeal on the status page; appeals are decided within ${m.appealBusinessDays} business days.`,
    statusLink(site, m.reference),
  ]);
}

const DECISION_TEXT: Record<AppealDecision, string> = {
  upheld: 'The first decision was upheld: it stays as it was.',
  overturned: 'The first decision was overturned: we changed it.',
};

export function appealOutcomeMail(site: MailSite, m: { reference: string; decision: AppealDecision; decidedAt: number }): RenderedMail {
  return composeMail(site, `Your report ${m.reference}: appeal ${m.decision}`, GREETING, [
    `The appeal on report ${m.reference} was decided on ${reportDate(m.decidedAt)}. ${DECISION_TEXT[m.decision]}`,
    statusLink(site, m.reference),
  ]);
}
