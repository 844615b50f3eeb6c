import type { ReportStatus } from '@media-site/contracts/member-api';
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

/** A report as its reporter sees it (contracts/src/member-api.ts). */
export type { ReportStatus };

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
