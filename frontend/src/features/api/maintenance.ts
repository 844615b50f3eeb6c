import { MAINTENANCE_TEXT, type SiteStatus } from '@media-site/contracts/site-status';
import { HttpError } from './fetchJson';

/**
 * The server's sentence when a change was refused because the site is in maintenance (503 with the
 * banner's words and the operator's message), else undefined: the forms show it as it is.
 */
export function pausedForMaintenance(error: unknown): string | undefined {
  return error instanceof HttpError && error.status === 503 && error.serverMessage?.startsWith(MAINTENANCE_TEXT)
    ? error.serverMessage
    : undefined;
}

/** GET /api/site; null when it cannot be read (the banner then stays as it was). */
export async function readSiteStatus(signal?: AbortSignal): Promise<SiteStatus | null> {
  try {
    const response = await fetch('/api/site', { headers: { Accept: 'application/json' }, signal });
    return response.ok ? ((await response.json()) as SiteStatus) : null;
  } catch {
    return null;
  }
}
