import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import type {
  AdminAdded,
  AdminDisabled,
  AdminEmailSet,
  AdminEnabled,
  AdminList,
  AdminMe,
  AdminPasskeysRevoked,
  AdminRole,
  AdminRoleChanged,
  AdminsRekeyed,
  AdminSummary,
  AdminTotpReset,
  AuditPage,
  AuditRow,
  Confirmation,
  DashboardData,
  Enrolment,
  MemberEnabled,
  MemberFound,
  MemberSearch,
  MemberSessionsEnded,
  OwnPasskeys,
  PasskeyAdded,
  PasskeyRenamed,
  PasskeyRevoked,
  PasskeySummary,
} from '@media-site/contracts/admin';
import type { QueueActionAnswer, QueueName, QueuesPage } from '@media-site/contracts/admin-queues';
import type { PricesAnswer, PricesBody, VodPriceAnswer } from '@media-site/contracts/admin-prices';
import type { StatsAnswer } from '@media-site/contracts/content-stats';
import type { SiteStatus } from '@media-site/contracts/site-status';
import type {
  BulkAction,
  ContentBulkResult,
  ContentChanged,
  ContentEdited,
  ContentItem,
  ContentKind,
  ContentPage,
  ContentReencoded,
  ContentScheduled,
  ContentState,
  DeskAnswer,
  DeskQueue,
  DeskReport,
  IngestAnswer,
  IngestList,
  IngestRun,
  ScheduledItem,
  ScheduledList,
  TeaseAnswer,
} from '@media-site/contracts/admin-content';

// The operator console's calls to /api/admin. Every failure becomes an AdminApiError
// whose text is the API's own message, so the screens can show it as it is. The answers' types are
// the shapes the bff builds them as and its OpenAPI document describes (contracts/src/admin*.ts).

export type {
  AdminRole,
  AuditRow,
  BulkAction,
  ContentBulkResult,
  ContentItem,
  ContentKind,
  ContentState,
  DashboardData,
  Enrolment,
  IngestRun,
  PricesAnswer,
  VodPriceAnswer,
  PricesBody,
  ScheduledItem,
};
export type Me = AdminMe;
export type MemberRow = MemberFound;
/** One report of the queue as GET /api/admin/reports answers it. */
export type ReportRow = DeskReport;
export type AdminListRow = AdminSummary;
/** A passkey as GET /api/admin/passkeys lists it (never its key). */
export type PasskeyRow = PasskeySummary;

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
  /** The whole list: the server folds each and drops repeats; [] removes every tag. */
  tags?: string[];
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
  me: () => call<AdminMe>('/me'),
  signInTotp: (name: string, code: string, altcha?: string) => post<AdminMe>('/signin/totp', { name, code, ...(altcha ? { altcha } : {}) }),
  signOut: () => post<undefined>('/signout'),
  passkeySignInOptions: () => post<PublicKeyCredentialRequestOptionsJSON>('/signin/passkey/options'),
  passkeySignIn: (response: AuthenticationResponseJSON) => post<AdminMe>('/signin/passkey/verify', { response }),
  confirmTotp: (code: string) => post<Confirmation>('/confirm/totp', { code }),
  confirmPasskeyOptions: () => post<PublicKeyCredentialRequestOptionsJSON>('/confirm/passkey/options'),
  confirmPasskey: (response: AuthenticationResponseJSON) => post<Confirmation>('/confirm/passkey/verify', { response }),
  passkeys: () => call<OwnPasskeys>('/passkeys'),
  passkeyAddOptions: () => post<PublicKeyCredentialCreationOptionsJSON>('/passkeys/options'),
  passkeyAdd: (response: RegistrationResponseJSON, name: string) => post<PasskeyAdded>('/passkeys/verify', { response, name }),
  renamePasskey: (id: number, name: string) => post<PasskeyRenamed>(`/passkeys/${id}/name`, { name }),
  revokePasskey: (id: number) => post<PasskeyRevoked>(`/passkeys/${id}/revoke`),
  audit: (before?: number) => call<AuditPage>(`/audit${before ? `?before=${before}` : ''}`),
  members: (q: string) => call<MemberSearch>(`/members?q=${encodeURIComponent(q)}`),
  disable: (username: string, reason: string) => post<MemberSessionsEnded>(`/members/${encodeURIComponent(username)}/disable`, { reason }),
  reports: () => call<DeskQueue>('/reports'),
  reportStep: (reference: string, step: 'ack' | 'resolve' | 'appeal' | 'decide', body: Record<string, string> = {}) =>
    post<DeskAnswer>(`/reports/${encodeURIComponent(reference)}/${step}`, body),
  takeDown: (path: string, reason: string, report: string) => post<ContentChanged>('/takedowns', { path, reason, report }),
  admins: () => call<AdminList>('/admins'),
  addAdmin: (name: string, role: AdminRole, email: string) => post<AdminAdded>('/admins', { name, role, ...(email ? { email } : {}) }),
  adminRole: (name: string, role: AdminRole) => post<AdminRoleChanged>(`/admins/${encodeURIComponent(name)}/role`, { role }),
  adminTotp: (name: string, keepPasskeys: boolean) => post<AdminTotpReset>(`/admins/${encodeURIComponent(name)}/totp`, { keepPasskeys }),
  disableAdmin: (name: string) => post<AdminDisabled>(`/admins/${encodeURIComponent(name)}/disable`),
  enableAdmin: (name: string) => post<AdminEnabled>(`/admins/${encodeURIComponent(name)}/enable`),
  adminEmail: (name: string, email: string) => post<AdminEmailSet>(`/admins/${encodeURIComponent(name)}/email`, { email }),
  revokeAdminPasskeys: (name: string) => post<AdminPasskeysRevoked>(`/admins/${encodeURIComponent(name)}/passkeys/revoke`),
  rekeyAdmins: () => post<AdminsRekeyed>('/admins/rekey'),
  dashboard: (days: string) => call<DashboardData>(`/dashboard?days=${encodeURIComponent(days)}`),
  enable: (username: string) => call<MemberEnabled>(`/members/${encodeURIComponent(username)}/enable`, { method: 'POST' }),
  endSessions: (username: string) => call<MemberSessionsEnded>(`/members/${encodeURIComponent(username)}/signout-all`, { method: 'POST' }),
  ingests: () => call<IngestList>('/ingests'),
  startIngest: (folder: string) => post<IngestAnswer>('/ingests', { folder }),
  ingest: (id: number) => call<IngestAnswer>(`/ingests/${id}`),
  scheduled: () => call<ScheduledList>('/scheduled'),
  tease: (path: string, teased: boolean) => post<TeaseAnswer>('/teasers', { path, teased }),
  /** GET /api/site (public): whether the site is in maintenance. */
  site: async (): Promise<SiteStatus> => {
    const res = await fetch('/api/site', { headers: { Accept: 'application/json' } });
    if (!res.ok) throw new AdminApiError(res.status, 'Whether the site is in maintenance could not be read.');
    return (await res.json()) as SiteStatus;
  },
  maintenance: (on: boolean, message?: string) => post<SiteStatus>('/maintenance', { on, ...(message ? { message } : {}) }),
  prices: () => call<PricesAnswer>('/prices'),
  setPrices: (offer: PricesBody) => call<PricesAnswer>('/prices', { method: 'PUT', body: JSON.stringify(offer) }),
  vodPrice: () => call<VodPriceAnswer>('/prices/vod'),
  setVodPrice: (price: string | null) => call<VodPriceAnswer>('/prices/vod', { method: 'PUT', body: JSON.stringify({ price }) }),
};

export const contentApi = {
  find: (query: ContentQuery) => {
    const params = new URLSearchParams({ page: String(query.page) });
    if (query.q) params.set('q', query.q);
    if (query.type) params.set('type', query.type);
    if (query.state !== 'all') params.set('state', query.state);
    return call<ContentPage>(`/content?${params}`);
  },
  edit: (path: string, edit: ContentEdit) => post<ContentEdited>('/content/edit', { path, ...edit }),
  schedule: (path: string, at: string | null) => post<ContentScheduled>('/content/schedule', { path, at }),
  reencode: (path: string) => post<ContentReencoded>('/content/reencode', { path }),
  takedown: (path: string, reason: string) => post<ContentChanged>('/takedowns', { path, reason }),
  restore: (path: string, reason: string) => post<ContentChanged>('/restores', { path, reason }),
  bulk: (change: { action: BulkAction; paths: string[]; reason?: string; at?: string; preview: boolean }) =>
    post<ContentBulkResult>('/content/bulk', change),
};

/** The Stats screen (every role; sales and revenue for the owner and support). */
export const statsApi = {
  find: (params: URLSearchParams) => call<StatsAnswer>(`/stats${params.size ? `?${params}` : ''}`),
};

/** The Queues screen (owner and moderator). */
export const queueApi = {
  list: () => call<QueuesPage>('/queues'),
  act: (queue: QueueName, action: { verb: string; id?: number }) =>
    post<QueueActionAnswer>(
      action.id === undefined ? `/queues/${queue}/${action.verb}` : `/queues/${queue}/jobs/${action.id}/${action.verb}`,
    ),
};

export const AUDIT_CSV = '/api/admin/audit.csv';

export const when = (ms: number | null): string => (ms === null ? '—' : new Date(ms).toISOString().replace('T', ' ').slice(0, 16) + ' UTC');
