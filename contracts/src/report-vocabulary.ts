// Fixed lists shared by the report form (bff schema), the operator CLI and the export.
export const REPORT_REASONS = ['no_consent', 'underage', 'copyright', 'privacy', 'violence', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

export const REASON_LABELS: Record<ReportReason, string> = {
  no_consent: 'I am depicted and did not consent',
  underage: 'A person depicted may be under 18',
  copyright: 'Copyright or trademark infringement',
  privacy: 'Private information or identifying details',
  violence: 'Violence, abuse or other illegal content',
  other: 'Other',
};

export const OUTCOMES = ['removed', 'restricted', 'edited', 'no_action'] as const;
export type Outcome = (typeof OUTCOMES)[number];

export const APPEAL_DECISIONS = ['upheld', 'overturned'] as const;
export type AppealDecision = (typeof APPEAL_DECISIONS)[number];

export const DETAILS_MAX = 2000;
export const URL_MAX = 500;
export const EMAIL_MAX = 254;
export const NOTE_MAX = 1000;
export const ACTOR_MAX = 64;
