import { call, post } from './api';

// Support's members and payments in the console (issue 24): one member's detail, extending a
// membership, reconciling one stuck attempt (bff/src/routes/api/admin/members.ts).

export interface AttemptRow {
  id: number;
  kind: string;
  vod: string | null;
  amount: string;
  currencyCode: number;
  status: string;
  step: string;
  providerSubscriptionId: string | null;
  declineText: string | null;
  createdAt: number;
  updatedAt: number;
  stuck: boolean;
}

export interface MemberDetail {
  username: string;
  account: { email: string; createdAt: number; disabledAt: number | null; disabledReason: string | null; revokedAt: number | null } | null;
  membership: {
    paidUntil: number | null;
    state: 'active' | 'lapsed' | 'none' | 'withdrawn';
    subscriptions: { id: number; status: string; paidUntil: number | null; providerSubscriptionId: string | null; createdAt: number }[];
  };
  vods: { path: string; title: string; status: string; boughtAt: number }[];
  sessions: { count: number; lastSignInAt: number | null; expiresAt: number | null };
  attempts: AttemptRow[];
  webhooks: {
    id: number;
    eventType: string;
    transactionId: string;
    subscriptionId: string | null;
    receivedAt: number;
    outcome: string | null;
  }[];
}

export type ReconcileAction = 'approve' | 'decline' | 'expire';

/** Support's members and payments (bff/src/routes/api/admin/members.ts). */
export const memberApi = {
  detail: (username: string) => call<MemberDetail>(`/members/${encodeURIComponent(username)}`),
  extend: (username: string, days: number, reason: string) =>
    post<{ username: string; before: number | null; paidUntil: number }>(`/members/${encodeURIComponent(username)}/extend`, {
      days,
      reason,
    }),
  reconcile: (id: number, action: ReconcileAction, subscriptionId?: string) =>
    post<{ username: string; before: string; after: string }>(`/payments/${id}/reconcile`, { action, subscriptionId }),
};
