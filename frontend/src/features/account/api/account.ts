import { fetchJson, postJson } from '../../api/fetchJson';
import type { AccountView, MessageAnswer, ReleaseMailState, RenewalCancelled } from '@media-site/contracts/member-api';

/** GET /api/account (contracts/src/member-api.ts): a bought VOD taken down since is listed as `{ removed: true }`. */
export type { AccountView };

export function getAccount(signal: AbortSignal): Promise<AccountView> {
  return fetchJson<AccountView>('/api/account', { signal, credentials: 'same-origin' });
}

export async function changePassword(currentPassword: string, newPassword: string): Promise<void> {
  await postJson<unknown>('/api/account/password', { currentPassword, newPassword }).catch((error: unknown) => {
    // 204 has no JSON body: fetchJson's parse fails after a success.
    if (error instanceof SyntaxError) return;
    throw error;
  });
}

export async function signOutEverywhere(): Promise<void> {
  const response = await fetch('/api/account/sign-out-everywhere', {
    method: 'POST',
    headers: { Accept: 'application/json' },
    credentials: 'same-origin',
  });
  if (!response.ok && response.status !== 401) throw new Error(`HTTP error! status: ${response.status}`);
}

/** POST /api/account/cancel-renewal: the provider stops the rebilling; access runs to the paid-through day. */
export function cancelRenewal(): Promise<RenewalCancelled> {
  return postJson<RenewalCancelled>('/api/account/cancel-renewal', undefined, { credentials: 'same-origin' });
}

/** PUT (on) or DELETE (off) /api/account/release-mail: an e-mail when models in My list release something. */
export function setReleaseMail(on: boolean): Promise<ReleaseMailState> {
  return fetchJson<ReleaseMailState>('/api/account/release-mail', { method: on ? 'PUT' : 'DELETE', credentials: 'same-origin' });
}

/** A release mail's link: RFC 8058's one-click POST, the same a mail app sends (no session needed). */
export async function unsubscribeReleaseMail(token: string): Promise<string> {
  const answer = await fetchJson<MessageAnswer>(`/api/mail/unsubscribe?token=${encodeURIComponent(token)}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'List-Unsubscribe=One-Click',
    credentials: 'omit',
  });
  return answer.message;
}
