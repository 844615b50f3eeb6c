import { randomUUID } from 'node:crypto';

/**
 * A caller's X-Request-Id is echoed (and logged) only if it is short and printable, so it cannot
 * forge log lines or bloat them; anything else gets a fresh UUID. The same rule in every service,
 * so one id follows a request from nginx through the bff and the media service.
 */
export const REQUEST_ID = /^[\w.:-]{1,128}$/;

export function requestIdFrom(given: string | string[] | undefined): string {
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}
