import type { Context, Next } from 'koa';
import type { AccountDeps } from '../../../account/deps';
import { limitPerAddress } from '../../../security/address-limit';
import { readBody } from '../../../security/body';
import { requireSameOrigin } from '../../../security/origin';

type Guard = (ctx: Context, next: Next) => Promise<void>;

/**
 * The guards of a site form's POST, in order: the same-origin check; with `limit`, the per-address
 * budget, counted before the body is read or validated so a refused call costs nothing more;
 * then the JSON body (at most `bodyBytes`).
 */
export function formGuards(deps: AccountDeps, limit?: { what: string; perMinute: number }, bodyBytes?: number): Guard[] {
  return [
    requireSameOrigin(deps.settings.allowedOrigins),
    ...(limit ? [limitPerAddress(deps.limiter, limit.what, limit.perMinute)] : []),
    readBody(bodyBytes),
  ];
}
