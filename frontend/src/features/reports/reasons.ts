import {
  DETAILS_MAX,
  EMAIL_MAX,
  REASON_LABELS,
  REPORT_REASONS as REASONS,
  URL_MAX,
  type ReportReason,
} from '@media-site/contracts/report-vocabulary';

// The API's fixed list (contracts/src/report-vocabulary.ts); the values are part of the API contract.
export const REPORT_REASONS = REASONS.map((value) => ({ value, label: REASON_LABELS[value] }));

export { DETAILS_MAX, EMAIL_MAX, type ReportReason };
export const CONTENT_MAX = URL_MAX;

const OUTCOME_TEXT: Record<string, string> = {
  removed: 'The content was removed.',
  restricted: 'Access to the content was restricted.',
  edited: 'The content was edited.',
  no_action: 'No action was taken: the content complies with our policies and the law.',
};

export function outcomeText(outcome: string | null): string {
  return outcome === null ? 'Not decided yet.' : (OUTCOME_TEXT[outcome] ?? outcome);
}
