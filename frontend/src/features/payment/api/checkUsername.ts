import type { UsernameAvailability } from '@media-site/contracts/member-api';

/** true: free; false: taken; undefined: no answer (rate-limited, offline): the server checks again at step 1. */
export async function checkUsername(username: string, signal: AbortSignal): Promise<boolean | undefined> {
  try {
    const response = await fetch(`/api/username-available?u=${encodeURIComponent(username)}`, {
      headers: { Accept: 'application/json' },
      signal,
    });
    if (!response.ok) return undefined;
    const body = (await response.json()) as Partial<UsernameAvailability>;
    return typeof body.available === 'boolean' ? body.available : undefined;
  } catch {
    return undefined;
  }
}
