import { fetchJson, postJson } from '../../api/fetchJson';
import type { Member } from '../../../hooks/useSession';
import type { DownloadChoice } from '../../player/api/playback';

export interface AccountView extends Member {
  /** Where the site's mail goes (receipts, password reset); changed by a link sent to the new address. */
  email: string;
  membership: Member['membership'] & { /** false once rebilling is cancelled (the paid time still runs) */ renews: boolean };
  /** A bought VOD that was taken down stays listed as removed: no title, no folder (it is the title), no download. */
  vodItems: (
    { path: string; updatename: string; download: string; downloads?: DownloadChoice[]; removed?: undefined } | { removed: true }
  )[];
}

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
