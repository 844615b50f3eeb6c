import { fetchJson, postJson } from '../../api/fetchJson';
import type { AccountView, RenewalCancelled } from '@media-site/contracts/member-api';

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
