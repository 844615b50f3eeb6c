import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import type { AdminRole, AuditRow, MemberFound } from '@media-site/contracts/admin';
import type { AppealDecision, Outcome, ReportReason } from '@media-site/contracts/report-vocabulary';

export type { AdminRole, AuditRow };

// The operator console's calls to /api/admin. Every failure becomes an AdminApiError
// whose text is the API's own message, so the screens can show it as it is.

export interface Me {
  name: string;
  role: AdminRole;
}

export type MemberRow = MemberFound;

/** One report of the queue as GET /api/admin/reports answers it (bff/src/routes/api/admin/report-desk.ts). */
export interface ReportRow {
  reference: string;
  content_url: string;
  reason: ReportReason;
  details: string;
  created_at: number;
  acknowledged_at: number | null;
  acknowledged_by: string | null;
  resolved_at: number | null;
  resolved_by: string | null;
  outcome: Outcome | null;
  resolution_note: string | null;
  appealed_at: number | null;
  appeal_text: string | null;
  appeal_decided_at: number | null;
  appeal_decision: AppealDecision | null;
  deadlines: { acknowledgeBy: number; resolveBy: number; appealDecideBy: number | null };
  sla: { state: 'overdue' | 'due_soon' | 'on_time'; late: ('acknowledge' | 'resolve' | 'appeal')[]; next: number | null };
  item: { type: string; path: string; title: string; takenDown: boolean; page: string; thumbnail: string | null } | null;
}

export interface AdminListRow {
  name: string;
  role: AdminRole;
  email: string | null;
  disabledAt: number | null;
  createdAt: number;
  passkeys: number;
}

/** A passkey as GET /api/admin/passkeys lists it (never its key). */
export interface PasskeyRow {
  id: number;
  name: string;
  transports: string[];
  createdAt: number;
  lastUsedAt: number | null;
}

/** A new TOTP secret, shown once: the text and its otpauth:// URI for an authenticator app. */
export interface Enrolment {
  name: string;
  secret: string;
  uri: string;
}

export type ContentKind = 'photoset' | 'freephotoset' | 'video' | 'vod' | 'model';
export type ContentState = 'all' | 'live' | 'scheduled' | 'takendown';

/** An item as GET /api/admin/content answers (db/src/reports/content-admin.ts). */
export interface ContentItem {
  type: ContentKind;
  path: string;
  title: string;
  model: string | null;
  date: string | null;
  price: string | null;
  publishAt: number | null;
  takenDown: boolean;
  encode: { status: 'queued' | 'running' | 'done' | 'failed'; attempts: number; progress: number; error: string | null } | null;
  items?: number;
}

export interface ContentQuery {
  q: string;
  type: ContentKind | '';
  state: ContentState;
  page: number;
}

export interface ContentEdit {
  title?: string;
  model?: string;
  date?: string;
  price?: string;
}

/** GET /api/admin/dashboard (db/src/admin/dashboard.ts): a section is absent when the role may not see it. */
export interface DashboardData {
  now: number;
  days: string[];
  sections: Record<'members' | 'payments' | 'encode' | 'reports' | 'operations', boolean>;
  members?: { day: string; active: number; new: number; cancelled: number; chargedBack: number }[];
  revenue?: {
    currencyCode: number;
    days: { day: string; membership: number; renewals: number; vod: number }[];
    totalMembership: number;
    totalRenewals: number;
    totalVod: number;
  }[];
  encode?: { queued: number; running: number; failed: number; retrying: number };
  reports?: { open: number; dueToday: number; overdue: number };
  purge?: { pending: number; oldest: { id: number; event: string; createdAt: number; attempts: number; lastError: string | null } | null };
  mediaLists?: {
    instance: string;
    list: 'revocations' | 'takedowns';
    fetchedAt: number;
    ageSeconds: number;
    maxAgeSeconds: number | null;
    late: boolean;
  }[];
  errors?: { at: number; source: string; subject: string; text: string }[];
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

export class AdminApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The API's error code (`confirm_required`, `challenge_required`, ...), when it gave one. */
    readonly code = '',
  ) {
    super(message);
  }
}

const FALLBACK: Record<number, string> = {
  401: 'Your console session has ended: sign in again.',
  403: 'Your role may not do this.',
  429: 'Too many attempts: wait a minute and try again.',
};

async function failure(res: Response): Promise<AdminApiError> {
  let message = '';
  let code = '';
  try {
    const body = (await res.json()) as { error?: { message?: unknown; code?: unknown }; message?: unknown };
    const found = body.error?.message ?? body.message;
    if (typeof found === 'string') message = found;
    if (typeof body.error?.code === 'string') code = body.error.code;
  } catch {
    // not JSON: fall back to the status's text
  }
  const fallback =
    res.status >= 500 ? `The server could not answer (${res.status}): try again in a moment.` : `The server answered ${res.status}.`;
  return new AdminApiError(res.status, message || FALLBACK[res.status] || fallback, code);
}

/** A console call gives up after this long (nginx would wait 30 s for a hung bff). */
const CALL_TIMEOUT_MS = 15_000;

export async function call<T>(path: string, init: RequestInit = {}): Promise<T> {
  let res: Response;
  const timeout = AbortSignal.timeout(CALL_TIMEOUT_MS);
  try {
    res = await fetch(`/api/admin${path}`, {
      credentials: 'same-origin',
      ...init,
      signal: init.signal ? AbortSignal.any([init.signal, timeout]) : timeout,
      headers: { Accept: 'application/json', ...(init.body ? { 'Content-Type': 'application/json' } : {}) },
    });
  } catch (err) {
    if (timeout.aborted) throw new AdminApiError(0, 'The server did not answer in time: try again in a moment.');
    if (init.signal?.aborted) throw err;
    throw new AdminApiError(0, 'The server could not be reached: check the connection and try again.');
  }
  if (!res.ok) throw await failure(res);
  return (res.status === 204 ? undefined : await res.json()) as T;
}

export const post = <T>(path: string, body: unknown = {}) => call<T>(path, { method: 'POST', body: JSON.stringify(body) });

export const adminApi = {
  me: () => call<Me>('/me'),
  signInTotp: (name: string, code: string, altcha?: string) => post<Me>('/signin/totp', { name, code, ...(altcha ? { altcha } : {}) }),
  signOut: () => post<undefined>('/signout'),
  passkeySignInOptions: () => post<PublicKeyCredentialRequestOptionsJSON>('/signin/passkey/options'),
  passkeySignIn: (response: AuthenticationResponseJSON) => post<Me>('/signin/passkey/verify', { response }),
  confirmTotp: (code: string) => post<{ confirmedUntil: number }>('/confirm/totp', { code }),
  confirmPasskeyOptions: () => post<PublicKeyCredentialRequestOptionsJSON>('/confirm/passkey/options'),
  confirmPasskey: (response: AuthenticationResponseJSON) => post<{ confirmedUntil: number }>('/confirm/passkey/verify', { response }),
  passkeys: () => call<{ passkeys: PasskeyRow[]; confirmedUntil: number | null }>('/passkeys'),
  passkeyAddOptions: () => post<PublicKeyCredentialCreationOptionsJSON>('/passkeys/options'),
  passkeyAdd: (response: RegistrationResponseJSON, name: string) => post<{ passkey: PasskeyRow }>('/passkeys/verify', { response, name }),
  renamePasskey: (id: number, name: string) => post<{ id: number; name: string }>(`/passkeys/${id}/name`, { name }),
  revokePasskey: (id: number) => post<{ revoked: number }>(`/passkeys/${id}/revoke`),
  audit: (before?: number) => call<{ entries: AuditRow[]; next: number | null }>(`/audit${before ? `?before=${before}` : ''}`),
  members: (q: string) => call<{ members: MemberRow[] }>(`/members?q=${encodeURIComponent(q)}`),
  disable: (username: string, reason: string) =>
    post<{ username: string; sessionsEnded: number }>(`/members/${encodeURIComponent(username)}/disable`, { reason }),
  reports: () => call<{ reports: ReportRow[] }>('/reports'),
  reportStep: (reference: string, step: 'ack' | 'resolve' | 'appeal' | 'decide', body: Record<string, string> = {}) =>
    post<{ report: ReportRow }>(`/reports/${encodeURIComponent(reference)}/${step}`, body),
  takeDown: (path: string, reason: string, report: string) => post<{ type: string; path: string }>('/takedowns', { path, reason, report }),
  admins: () => call<{ admins: AdminListRow[] }>('/admins'),
  addAdmin: (name: string, role: AdminRole, email: string) =>
    post<Enrolment & { role: AdminRole }>('/admins', { name, role, ...(email ? { email } : {}) }),
  adminRole: (name: string, role: AdminRole) =>
    post<{ name: string; before: AdminRole; after: AdminRole }>(`/admins/${encodeURIComponent(name)}/role`, { role }),
  adminTotp: (name: string, keepPasskeys: boolean) =>
    post<Enrolment & { sessionsEnded: number; passkeysRevoked: number }>(`/admins/${encodeURIComponent(name)}/totp`, { keepPasskeys }),
  disableAdmin: (name: string) => post<{ name: string; sessionsEnded: number }>(`/admins/${encodeURIComponent(name)}/disable`),
  enableAdmin: (name: string) => post<{ name: string }>(`/admins/${encodeURIComponent(name)}/enable`),
  adminEmail: (name: string, email: string) =>
    post<{ name: string; email: string | null }>(`/admins/${encodeURIComponent(name)}/email`, { email }),
  revokeAdminPasskeys: (name: string) => post<{ name: string; revoked: number }>(`/admins/${encodeURIComponent(name)}/passkeys/revoke`),
  rekeyAdmins: () => post<{ resealed: number; kid: string }>('/admins/rekey'),
  dashboard: (days: string) => call<DashboardData>(`/dashboard?days=${encodeURIComponent(days)}`),
  enable: (username: string) => call<{ username: string }>(`/members/${encodeURIComponent(username)}/enable`, { method: 'POST' }),
  endSessions: (username: string) =>
    call<{ username: string; sessionsEnded: number }>(`/members/${encodeURIComponent(username)}/signout-all`, { method: 'POST' }),
  ingests: () => call<{ folders: string[]; runs: IngestRun[] }>('/ingests'),
  startIngest: (folder: string) => post<{ run: IngestRun }>('/ingests', { folder }),
  ingest: (id: number) => call<{ run: IngestRun }>(`/ingests/${id}`),
  scheduled: () => call<{ items: ScheduledItem[] }>('/scheduled'),
  tease: (path: string, teased: boolean) => post<{ teased: boolean }>('/teasers', { path, teased }),
};

export const contentApi = {
  find: (query: ContentQuery) => {
    const params = new URLSearchParams({ page: String(query.page) });
    if (query.q) params.set('q', query.q);
    if (query.type) params.set('type', query.type);
    if (query.state !== 'all') params.set('state', query.state);
    return call<{ items: ContentItem[]; more: boolean; page: number }>(`/content?${params}`);
  },
  edit: (path: string, edit: ContentEdit) => post<{ changed: string[]; item: ContentItem }>('/content/edit', { path, ...edit }),
  schedule: (path: string, at: string | null) => post<{ item: ContentItem }>('/content/schedule', { path, at }),
  reencode: (path: string) => post<{ item: ContentItem }>('/content/reencode', { path }),
  takedown: (path: string, reason: string) => post<{ generation: number }>('/takedowns', { path, reason }),
  restore: (path: string, reason: string) => post<{ generation: number }>('/restores', { path, reason }),
};

export const AUDIT_CSV = '/api/admin/audit.csv';

export const when = (ms: number | null): string => (ms === null ? '—' : new Date(ms).toISOString().replace('T', ' ').slice(0, 16) + ' UTC');
