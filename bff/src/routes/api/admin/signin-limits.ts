import type { Context } from 'koa';
import { RateLimitedError } from '../../../errors';
import type { AccountDeps } from '../../../account/deps';
import { addressBlock } from '../../../security/client-address';
import { signDeviceCookie, verifyDeviceCookie, type Device } from '../../../security/device-cookie';
import { chargeSignInAttempt, type AttemptOutcome, type SignInClient } from '../auth/limits';
import { requireProof } from '../auth/service';

/**
 * Wrong console TOTP codes never lock an account (anyone who knows an admin's name could keep them
 * out). They are budgeted as members' passwords are (auth/limits.ts), under ADMIN_SIGNIN_FAILURES:
 * per (address, name); per browser that signed in as the name before (`admin_device`); and for the
 * name from every other browser together. Past a budget a code needs a proof of work, not a wait.
 * A 6-digit code is a small secret, so on top of that, wrong codes for a name from browsers it never
 * signed in from have a daily ceiling (ADMIN_SIGNIN_NEW_BROWSER_FAILURES_PER_DAY): past it such
 * browsers are refused codes for that name for the rest of the day, while the admin's known
 * browsers and passkeys still work. Passkeys are never budgeted by codes (only the per-address rate).
 */
export const ADMIN_DEVICE_COOKIE = 'admin_device';
const ADMIN_DEVICE_COOKIE_PATH = '/api/admin/signin';
const DEVICE_COOKIE_DAYS = 365;
const DAY_SECONDS = 86_400;

export function adminSignInClient(ctx: Context, deps: AccountDeps): SignInClient {
  const value = ctx.cookies.get(ADMIN_DEVICE_COOKIE, { signed: false });
  return { address: addressBlock(ctx.ip), device: verifyDeviceCookie(deps.settings.signinKeys, value, 'admin-device-cookie') };
}

/** After a good sign-in (code or passkey): this browser is known for this admin from now on. */
export function rememberAdminDevice(ctx: Context, deps: AccountDeps, name: string, device: Device | undefined): void {
  ctx.cookies.set(ADMIN_DEVICE_COOKIE, signDeviceCookie(deps.settings.signinKeys, name, device, 'admin-device-cookie'), {
    path: ADMIN_DEVICE_COOKIE_PATH,
    sameSite: 'strict',
    httpOnly: true,
    secure: ctx.secure,
    signed: false,
    overwrite: true,
    maxAge: DEVICE_COOKIE_DAYS * DAY_SECONDS * 1000,
  });
}

export interface AdminCodeAttempt {
  settle(outcome: AttemptOutcome): Promise<void>;
}

/**
 * Charges a TOTP sign-in before the code is checked, the same for a name that exists and one that
 * does not: 429 past the new-browser ceiling, 403 challenge_required past a budget without a fresh
 * proof of work. Only a wrong code keeps its count (settle).
 */
export async function chargeAdminCode(
  deps: AccountDeps,
  name: string,
  client: SignInClient,
  proof: string | undefined,
): Promise<AdminCodeAttempt> {
  const { limiter, settings } = deps;
  const attempt = await chargeSignInAttempt(deps, name, client, { prefix: 'admin-signin', perAccount: settings.admin.signInFailures });
  const ceiling =
    client.device?.username === name
      ? undefined
      : { key: `admin-signin:new-browsers:${name}`, limit: settings.admin.newBrowserFailuresPerDay };
  const giveBack = async () => {
    if (ceiling) await limiter.refund(ceiling.key, ceiling.limit, DAY_SECONDS);
  };
  try {
    if (ceiling && !(await limiter.hit(ceiling.key, ceiling.limit, DAY_SECONDS))) {
      deps.logger.warn(
        { admin: name },
        'console codes for this admin from new browsers are refused for the day: too many wrong ones (guessing?)',
      );
      throw new RateLimitedError(
        'Too many wrong codes for this name from new browsers today. Use your passkey, or a browser you signed in from before.',
      );
    }
    if (attempt.needsProof) await requireProof(deps, proof);
  } catch (err) {
    await Promise.all([attempt.settle('unchecked'), giveBack()]);
    throw err;
  }
  return {
    async settle(outcome) {
      await Promise.all([attempt.settle(outcome), outcome === 'failed' ? undefined : giveBack()]);
    },
  };
}
