import type { AccountDeps } from '../../../account/deps';
import { requireProof } from '../auth/service';
import type { SignInClient } from '../auth/limits';

// Who may have a reset link mailed, and how often. The member's own browser (its `reset_device`
// cookie names the account) is budgeted per device, untouched by anyone else; every other browser
// shares budgets per address and per login, and past either needs the sign-in's proof of work
// (403 challenge_required, about a second of CPU), never a silent drop. Those budgets are keyed by
// what was typed, whether or not an account matches, so a challenge says nothing of one. The mails
// themselves are bounded by the live links an account may hold (service.ts), which no request cancels.

/** A known browser's requests an hour; past it the browser counts as an unknown one. */
export const RESETS_PER_DEVICE_PER_HOUR = 3;
/** Requests an hour for one login (a username, or an e-mail address) from every unknown browser together. */
export const RESETS_PER_LOGIN_PER_HOUR = 3;
/** Requests an hour from one address (an IPv6 /64 as one) by unknown browsers, whatever the logins. */
export const RESETS_PER_ADDRESS_PER_HOUR = 10;
/** Live (unused, unexpired) links an account may hold: a request at the cap mails nothing and cancels nothing. */
export const LIVE_LINKS_MAX = 6;
/** An unknown browser's request adds a link only while the account holds fewer live ones than this. */
export const LIVE_LINKS_FROM_UNKNOWN_BROWSERS = 3;

const HOUR_SECONDS = 3600;

const PROOF_MISSING = 'Too many reset requests for this name from new devices. Please confirm you are a person to continue.';

/**
 * Charges one request for `login` (lower case) naming these accounts. Returns the username the
 * request came from a known browser of, within that browser's budget; otherwise the unknown
 * browsers' budgets are charged, and past either a solved challenge (`altcha`) is required.
 */
export async function chargeResetRequest(
  deps: AccountDeps,
  login: string,
  usernames: string[],
  client: SignInClient,
  altcha: string | undefined,
): Promise<string | undefined> {
  const { device } = client;
  if (device && usernames.some((u) => u.toLowerCase() === device.username)) {
    if (await deps.limiter.hit(`pwreset:device:${device.id}`, RESETS_PER_DEVICE_PER_HOUR, HOUR_SECONDS)) return device.username;
  }
  const left = await Promise.all([
    deps.limiter.hit(`pwreset:address:${client.address}`, RESETS_PER_ADDRESS_PER_HOUR, HOUR_SECONDS),
    deps.limiter.hit(`pwreset:login:${login}`, RESETS_PER_LOGIN_PER_HOUR, HOUR_SECONDS),
  ]);
  if (left.includes(false)) {
    // Not the login itself (it may be an e-mail address): which budget, and from where.
    if (altcha === undefined)
      deps.logger.warn(
        { address: client.address, spent: left[0] ? 'login' : 'address' },
        'password reset needs a proof of work: a budget for unknown browsers is spent',
      );
    await requireProof(deps, altcha, PROOF_MISSING);
  }
  return undefined;
}
