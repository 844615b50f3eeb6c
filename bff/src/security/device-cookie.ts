import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { KeyRing } from '@media-site/contracts/token';

/**
 * A browser that signed in as a username before (OWASP's "device cookie"). Sign-in attempts that
 * carry one for the username they name are limited per device, not by the account's budget for
 * unknown devices, so spraying an account from many addresses cannot lock its owner out.
 * `d1.<kid>.<username, lower case>.<random device id>.<HMAC-SHA256>`, keyed by SIGNIN_KEYS (a key
 * derived per purpose, so the same ring can key other sign-in secrets without one passing for
 * another). No database row.
 */
export const DEVICE_COOKIE = 'login_device';
export const DEVICE_COOKIE_PATH = '/api/login';
export const DEVICE_COOKIE_DAYS = 365;
/**
 * The same value again, for "Forgot password?" (password-reset/limits.ts): a browser sends a cookie
 * only to its Path, and widening login_device's to /api would send it with every API call (the
 * catalog's cached ones too). Its own name, since one response sets both (Koa's `overwrite` keeps
 * one Set-Cookie per name). A browser that signed in before this cookie existed gets it at its next sign-in.
 */
export const RESET_DEVICE_COOKIE = 'reset_device';
export const RESET_DEVICE_COOKIE_PATH = '/api/password-reset';

export interface Device {
  username: string;
  id: string;
}

// The name part covers members' usernames (3-15) and console admins' names (3-32).
const FORMAT = /^d1\.([\w-]{1,32})\.([a-z0-9_]{3,32})\.([\w-]{22})\.([\w-]{43})$/;

/** Whose device cookie: a member's (`login_device`) or a console admin's (`admin_device`); neither verifies as the other. */
export type DevicePurpose = 'login-device-cookie' | 'admin-device-cookie';

/**
 * The key one use of a SIGNIN_KEYS secret gets: HMAC(secret, purpose). Each purpose ("login-device-cookie",
 * a proof-of-work challenge, ...) names its own, so a value made for one never verifies as another.
 */
export function signinPurposeKey(secret: Buffer, purpose: string): Buffer {
  return createHmac('sha256', secret).update(purpose).digest();
}

const mac = (secret: Buffer, message: string, purpose: DevicePurpose) =>
  createHmac('sha256', signinPurposeKey(secret, purpose)).update(message).digest('base64url');

/** Keeps the device id of a cookie the browser already holds for this username. */
export function signDeviceCookie(keys: KeyRing, username: string, device?: Device, purpose: DevicePurpose = 'login-device-cookie'): string {
  const user = username.toLowerCase();
  const id = device?.username === user ? device.id : randomBytes(16).toString('base64url');
  const message = `d1.${keys.signing.kid}.${user}.${id}`;
  return `${message}.${mac(keys.signing.secret, message, purpose)}`;
}

export function verifyDeviceCookie(
  keys: KeyRing,
  value: string | undefined,
  purpose: DevicePurpose = 'login-device-cookie',
): Device | undefined {
  const m = FORMAT.exec(value ?? '');
  if (!m) return undefined;
  const [, kid = '', username = '', id = '', sig = ''] = m;
  const secret = keys.byId.get(kid);
  if (!secret) return undefined;
  const want = Buffer.from(mac(secret, `d1.${kid}.${username}.${id}`, purpose));
  const got = Buffer.from(sig);
  return got.length === want.length && timingSafeEqual(got, want) ? { username, id } : undefined;
}
