import { useEffect, useSyncExternalStore } from 'react';
import type { Member } from '@media-site/contracts/member-api';

/** GET /api/me: who is signed in (contracts/src/member-api.ts). */
export type { Member };

/**
 * `unreachable`: the last session check got no answer (network error, 5xx, 502/503/504 while the
 * bff is away). That is "unknown", not "signed out": the member, if any, is the last one known.
 */
export type SessionState =
  { status: 'unknown'; unreachable?: boolean } | { status: 'signedOut' } | { status: 'signedIn'; member: Member; unreachable?: boolean };

let state: SessionState = { status: 'unknown' };
const listeners = new Set<() => void>();

// The last member /api/me confirmed, kept for this tab so that a reload during an outage still
// knows who was signed in (sessionStorage: gone with the tab, never shared with other tabs).
const LAST_MEMBER_KEY = 'session:lastMember';
/** How often the session check is repeated while the bff cannot be reached. */
export const OUTAGE_RETRY_MS = 10_000;
/**
 * How long one session check may take, answer read included. Without a limit a bff that accepts the
 * connection and never answers left the session unknown (pages waiting) for the browser's own ~30 s
 * or more; after this long it is an outage like any other: the notice, and the retries above.
 */
export const SESSION_CHECK_TIMEOUT_MS = 8_000;

function rememberMember(next: SessionState): void {
  try {
    if (next.status === 'signedIn') window.sessionStorage.setItem(LAST_MEMBER_KEY, JSON.stringify(next.member));
    else if (next.status === 'signedOut') window.sessionStorage.removeItem(LAST_MEMBER_KEY);
  } catch {
    // Storage refused (private mode, quota): memory still holds this page's state.
  }
}

function lastMember(): Member | null {
  try {
    const value: unknown = JSON.parse(window.sessionStorage.getItem(LAST_MEMBER_KEY) ?? 'null');
    return isMember(value) ? value : null;
  } catch {
    return null;
  }
}

export function setSession(next: SessionState): void {
  state = next;
  rememberMember(next);
  for (const listener of listeners) listener();
}

// No answer from the bff: keep what we knew (this page's state, else this tab's last member).
function markUnreachable(): void {
  if (state.status === 'signedIn') {
    setSession({ ...state, unreachable: true });
    return;
  }
  const member = lastMember();
  setSession(member ? { status: 'signedIn', member, unreachable: true } : { status: 'unknown', unreachable: true });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function isMember(value: unknown): value is Member {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Member).username === 'string' &&
    typeof (value as Member).mediaTokenSeconds === 'number'
  );
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
    const response = await fetch('/api/me', {
      headers: { Accept: 'application/json' },
      credentials: 'same-origin',
      signal: AbortSignal.timeout(SESSION_CHECK_TIMEOUT_MS),
    });
    // Only the bff's own 401 means signed out; a 5xx or a gateway error is an outage.
    if (response.status === 401) {
      setSession({ status: 'signedOut' });
      return state;
    }
    const body: unknown = response.ok ? await response.json() : null;
    if (isMember(body)) setSession({ status: 'signedIn', member: body });
    else markUnreachable();
  } catch {
    // Offline, the bff is away or too slow (the time limit), or its answer was not the member (an error page).
    markUnreachable();
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
  // During an outage, ask again on our own (the notice's Retry is for the impatient).
  const unreachable = session.status !== 'signedOut' && session.unreachable === true;
  useEffect(() => {
    if (!unreachable) return undefined;
    const timer = setInterval(() => void refreshSession(), OUTAGE_RETRY_MS);
    return () => clearInterval(timer);
  }, [unreachable]);
  return session;
}
