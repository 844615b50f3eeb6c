import { enforceRateLimit } from '../../../security/rate-limit';
import type { Device } from '../../../security/device-cookie';
import type { AccountDeps } from '../members/deps';

/** Where a sign-in attempt comes from: the client address, and the device cookie when it verified. */
export interface SignInClient {
  address: string;
  device: Device | undefined;
}

export const ACCOUNT_WINDOW_SECONDS = 15 * 60;

/**
 * Counted before the password is checked, whether or not the username exists (a refused attempt
 * costs no scrypt and tells nothing). With the defaults (10 and 10):
 * - one address: 10 attempts a minute, whatever the usernames;
 * - one address and one username: 10 attempts per 15 minutes;
 * - one username from a browser that signed in as it before (device cookie): 10 per 15 minutes for
 *   that device, untouched by anyone else;
 * - one username from every other browser together: 10 per 15 minutes. This is the brute-force
 *   bound (at most ~2 × 10 guesses in any 15 minutes across fixed windows, 960 a day, however many
 *   addresses), and it never locks the owner's own browser out.
 */
export async function enforceSignInLimits(deps: AccountDeps, username: string, client: SignInClient): Promise<void> {
  const { limiter, settings } = deps;
  const user = username.toLowerCase();
  const perAccount = settings.loginPerAccount;
  await enforceRateLimit(limiter, `login:ip:${client.address}`, settings.loginPerMinute);
  const wait = 'too many sign-in attempts for this account, try again in 15 minutes';
  await enforceRateLimit(limiter, `login:pair:${client.address}|${user}`, perAccount, ACCOUNT_WINDOW_SECONDS, wait);
  if (client.device?.username === user) {
    await enforceRateLimit(limiter, `login:device:${client.device.id}`, perAccount, ACCOUNT_WINDOW_SECONDS, wait);
    return;
  }
  try {
    await enforceRateLimit(limiter, `login:user:${user}`, perAccount, ACCOUNT_WINDOW_SECONDS, `${wait}, or sign in from a browser you have signed in with before`);
  } catch (err) {
    deps.logger.warn({ account: user }, 'sign-in refused: the account spent its budget for unknown browsers (guessing from many addresses?)');
    throw err;
  }
}
