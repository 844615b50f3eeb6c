/** The operator console's shapes, shared by the bff's answers (db/src/admin) and the console (frontend/src/admin). */

export const ADMIN_ROLES = ['owner', 'moderator', 'support'] as const;
export type AdminRole = (typeof ADMIN_ROLES)[number];

/** One audit log row as GET /api/admin/audit answers it (`at` in unix milliseconds). */
export interface AuditRow {
  id: number;
  at: number;
  actor: string;
  action: string;
  target: string;
  before: unknown;
  after: unknown;
  address: string;
}

/** Support's member search and detail (db/src/members/support.ts, GET /api/admin/members and /members/:username). */
export interface MemberFound {
  username: string;
  email: string;
  createdAt: number;
  paidUntil: number | null;
  vods: number;
  disabledAt: number | null;
  disabledReason: string | null;
  /** false: a sign-up payment names this username but no account exists (yet): a charge in doubt. */
  account: boolean;
  /** What matched: part of the name or e-mail, or a payment reference (attempt, subscription, transaction). */
  matched: 'name' | 'reference';
}

export interface AttemptView {
  id: number;
  kind: string;
  vod: string | null;
  amount: string;
  currencyCode: number;
  status: string;
  /** Where the four-step chain stands for this attempt, in an operator's words. */
  step: string;
  providerSubscriptionId: string | null;
  declineText: string | null;
  createdAt: number;
  updatedAt: number;
  /** Open (pending or unknown) for longer than STUCK_AFTER_MS: reconcile may settle it. */
  stuck: boolean;
}

export interface MemberDetail {
  username: string;
  account: {
    email: string;
    createdAt: number;
    disabledAt: number | null;
    disabledReason: string | null;
    revokedAt: number | null;
  } | null;
  membership: {
    paidUntil: number | null;
    /** active, lapsed, none (never had one), or withdrawn (disabled or charged back). */
    state: 'active' | 'lapsed' | 'none' | 'withdrawn';
    subscriptions: { id: number; status: string; paidUntil: number | null; providerSubscriptionId: string | null; createdAt: number }[];
  };
  vods: { path: string; title: string; status: string; boughtAt: number }[];
  /** Sessions are not touched on use: the newest start is the last sign-in, not the last request. */
  sessions: { count: number; lastSignInAt: number | null; expiresAt: number | null };
  attempts: AttemptView[];
  webhooks: {
    id: number;
    eventType: string;
    transactionId: string;
    subscriptionId: string | null;
    receivedAt: number;
    outcome: string | null;
  }[];
}
