import type { AttemptReconciled, AttemptView, MemberDetail, MembershipExtended } from '@media-site/contracts/admin';
import { call, post } from '../shared/api';

export type { MemberDetail };
export type AttemptRow = AttemptView;

// Support's members and payments in the console: one member's detail, extending a
// membership, reconciling one stuck attempt (bff/src/routes/api/admin/members.ts).

export type ReconcileAction = 'approve' | 'decline' | 'expire';

/** Support's members and payments (bff/src/routes/api/admin/members.ts). */
export const memberApi = {
  detail: (username: string) => call<MemberDetail>(`/members/${encodeURIComponent(username)}`),
  extend: (username: string, days: number, reason: string) =>
    post<MembershipExtended>(`/members/${encodeURIComponent(username)}/extend`, { days, reason }),
  reconcile: (id: number, action: ReconcileAction, subscriptionId?: string) =>
    post<AttemptReconciled>(`/payments/${id}/reconcile`, { action, subscriptionId }),
  resendReceipt: (id: number) => post<{ message: string }>(`/payments/${id}/resend-receipt`),
  cancelRenewal: (username: string) => post<{ message: string }>(`/members/${encodeURIComponent(username)}/cancel-renewal`),
};
