import { useEffect, useSyncExternalStore } from 'react';

export interface Member {
  username: string;
  membership: { active: boolean; paidUntil: string | null };
  vods: string[];
  /** Lifetime of the media cookie the bff sets with each /api/me. */
  mediaTokenSeconds: number;
}

export type SessionState = { status: 'unknown' } | { status: 'signedOut' } | { status: 'signedIn'; member: Member };

let state: SessionState = { status: 'unknown' };
const listeners = new Set<() => void>();

export function setSession(next: SessionState): void {
  state = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function isMember(value: unknown): value is Member {
  return typeof value === 'object' && value !== null && typeof (value as Member).username === 'string' && typeof (value as Member).mediaTokenSeconds === 'number';
}

// The bff sets this readable marker beside its HttpOnly session cookie: visitors never ask /api/me.
function mayBeSignedIn(): boolean {
  return document.cookie.split(';').some((c) => c.trim() === 'signed_in=1');
}

/** Asks the bff who is signed in; each answer also renews the short-lived media cookie. */
export async function refreshSession(): Promise<SessionState> {
  if (!mayBeSignedIn()) {
    setSession({ status: 'signedOut' });
    return state;
  }
  try {
    const response = await fetch('/api/me', { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
    const body: unknown = response.ok ? await response.json() : null;
    setSession(isMember(body) ? { status: 'signedIn', member: body } : { status: 'signedOut' });
  } catch {
    // Offline or the bff is away: keep what we knew.
  }
  return state;
}

export function useSession(): SessionState {
  return useSyncExternalStore(subscribe, () => state);
}

/**
 * Keeps the media cookie fresh while a member browses: photos and videos load with it, and it
 * lives only minutes so that revocations take effect (see bff/README.md).
 */
export function useSessionKeeper(): SessionState {
  const session = useSession();
  const seconds = session.status === 'signedIn' ? session.member.mediaTokenSeconds : 0;
  useEffect(() => {
    if (state.status === 'unknown') void refreshSession();
  }, []);
  useEffect(() => {
    if (!seconds) return undefined;
    const timer = setInterval(() => void refreshSession(), Math.max(20, seconds * 0.6) * 1000);
    return () => clearInterval(timer);
  }, [seconds]);
  return session;
}
