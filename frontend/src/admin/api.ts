import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import type { AdminRole, AuditRow } from '@media-site/contracts/admin';

export type { AdminRole, AuditRow };

// The operator console's calls to /api/admin (issue 24). Every failure becomes an AdminApiError
// whose text is the API's own message, so the screens can show it as it is.

export interface Me {
  name: string;
  role: AdminRole;
}

export interface MemberRow {
  username: string;
  email: string;
  createdAt: number;
  paidUntil: number | null;
  vods: number;
  disabledAt: number | null;
  disabledReason: string | null;
}

export interface ReportRow {
  reference: string;
  content_url: string;
  reason: string;
  created_at: number;
  acknowledged_at: number | null;
  resolved_at: number | null;
  outcome: string | null;
  appealed_at: number | null;
}

export interface IngestRun {
  id: number;
  folder: string;
  status: 'queued' | 'running' | 'done' | 'failed';
  requestedBy: string;
  total: number;
  done: number;
  lastLine: string;
  report: {
    added: number;
    updated: number;
    unchanged: number;
    skipped: { where: string; reason: string }[];
    failed: { where: string; reason: string }[];
    notes: string[];
  } | null;
  error: string | null;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
}

export interface ScheduledItem {
  type: 'photoset' | 'video' | 'vod';
  path: string;
  title: string;
  publishAt: number;
  teased: boolean;
}

/** What each role may see: the same table as db/src/admin/roles.ts; the API refuses the rest. */
const SCREENS: Record<AdminRole, readonly Screen[]> = {
  owner: ['audit', 'members', 'reports', 'ingest', 'coming-soon'],
  moderator: ['reports', 'ingest', 'coming-soon'],
  support: ['members'],
};

export type Screen = 'audit' | 'members' | 'reports' | 'ingest' | 'coming-soon';

export const screensOf = (role: AdminRole): readonly Screen[] => SCREENS[role];

export class AdminApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const FALLBACK: Record<number, string> = {
  401: 'Your console session has ended: sign in again.',
  403: 'Your role may not do this.',
  423: 'Too many failed sign-ins: this account is locked for a while.',
  429: 'Too many attempts: wait a minute and try again.',
};

async function failure(res: Response): Promise<AdminApiError> {
  let message = '';
  try {
    const body = (await res.json()) as { error?: { message?: unknown }; message?: unknown };
    const found = body.error?.message ?? body.message;
    if (typeof found === 'string') message = found;
  } catch {
    // not JSON: fall back to the status's text
  }
  return new AdminApiError(res.status, message || FALLBACK[res.status] || `The server answered ${res.status}.`);
}

async function call<T>(path: string, init: RequestInit = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`/api/admin${path}`, {
      credentials: 'same-origin',
      ...init,
      headers: { Accept: 'application/json', ...(init.body ? { 'Content-Type': 'application/json' } : {}) },
    });
  } catch {
    throw new AdminApiError(0, 'The server could not be reached: check the connection and try again.');
  }
  if (!res.ok) throw await failure(res);
  return (res.status === 204 ? undefined : await res.json()) as T;
}

const post = <T>(path: string, body: unknown = {}) => call<T>(path, { method: 'POST', body: JSON.stringify(body) });

export const adminApi = {
  me: () => call<Me>('/me'),
  signInTotp: (name: string, code: string) => post<Me>('/signin/totp', { name, code }),
  signOut: () => post<undefined>('/signout'),
  passkeySignInOptions: () => post<PublicKeyCredentialRequestOptionsJSON>('/signin/passkey/options'),
  passkeySignIn: (response: AuthenticationResponseJSON) => post<Me>('/signin/passkey/verify', { response }),
  passkeyAddOptions: () => post<PublicKeyCredentialCreationOptionsJSON>('/passkeys/options'),
  passkeyAdd: (response: RegistrationResponseJSON) => post<undefined>('/passkeys/verify', { response }),
  audit: (before?: number) => call<{ entries: AuditRow[]; next: number | null }>(`/audit${before ? `?before=${before}` : ''}`),
  members: (q: string) => call<{ members: MemberRow[] }>(`/members?q=${encodeURIComponent(q)}`),
  disable: (username: string, reason: string) =>
    post<{ username: string; sessionsEnded: number }>(`/members/${encodeURIComponent(username)}/disable`, { reason }),
  reports: () => call<{ reports: ReportRow[] }>('/reports'),
  enable: (username: string) => call<{ username: string }>(`/members/${encodeURIComponent(username)}/enable`, { method: 'POST' }),
  endSessions: (username: string) =>
    call<{ username: string; sessionsEnded: number }>(`/members/${encodeURIComponent(username)}/signout-all`, { method: 'POST' }),
  ingests: () => call<{ folders: string[]; runs: IngestRun[] }>('/ingests'),
  startIngest: (folder: string) => post<{ run: IngestRun }>('/ingests', { folder }),
  ingest: (id: number) => call<{ run: IngestRun }>(`/ingests/${id}`),
  scheduled: () => call<{ items: ScheduledItem[] }>('/scheduled'),
  tease: (path: string, teased: boolean) => post<{ teased: boolean }>('/teasers', { path, teased }),
};

export const AUDIT_CSV = '/api/admin/audit.csv';

export const when = (ms: number | null): string => (ms === null ? '—' : new Date(ms).toISOString().replace('T', ' ').slice(0, 16) + ' UTC');
