import { httpError } from '../../api/fetchJson';

/** An API refusal with the server's message (validation errors name the field). */
export class ReportApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ReportApiError';
  }
}

export interface ReportStatus {
  reference: string;
  receivedAt: string;
  acknowledgeBy: string;
  acknowledgedAt: string | null;
  resolveBy: string;
  resolvedAt: string | null;
  outcome: string | null;
  appealedAt: string | null;
  appealDecideBy: string | null;
  appealDecision: string | null;
  appealBusinessDays: number;
  canAppeal: boolean;
}

export async function reportRequest<T>(url: string, body?: unknown): Promise<T> {
  const response = await fetch(url, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.ok) return (await response.json()) as T;
  const error = await httpError(response);
  throw new ReportApiError(response.status, error.serverMessage ?? error.message);
}
