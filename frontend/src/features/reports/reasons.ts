// The API's fixed list (db/src/reports/vocabulary.ts); the values are part of the API contract.
export const REPORT_REASONS = [
  { value: 'no_consent', label: 'I am depicted and did not consent' },
  { value: 'underage', label: 'A person depicted may be under 18' },
  { value: 'copyright', label: 'Copyright or trademark infringement' },
  { value: 'privacy', label: 'Private information or identifying details' },
  { value: 'violence', label: 'Violence, abuse or other illegal content' },
  { value: 'other', label: 'Other' },
] as const;

export type ReportReason = (typeof REPORT_REASONS)[number]['value'];

export const DETAILS_MAX = 2000;
export const CONTENT_MAX = 500;
export const EMAIL_MAX = 254;

const OUTCOME_TEXT: Record<string, string> = {
  removed: 'The content was removed.',
  restricted: 'Access to the content was restricted.',
  edited: 'The content was edited.',
  no_action: 'No action was taken: the content complies with our policies and the law.',
};

export function outcomeText(outcome: string | null): string {
  return outcome === null ? 'Not decided yet.' : (OUTCOME_TEXT[outcome] ?? outcome);
}
