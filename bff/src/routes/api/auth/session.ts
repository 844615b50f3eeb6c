import type { Context } from 'koa';
import type { SetOption } from 'cookies';
import { SESSION_COOKIE as MEDIA_COOKIE } from '@media-site/contracts/token';
import { addressBlock } from '../../../security/client-address';
import {
  DEVICE_COOKIE,
  DEVICE_COOKIE_DAYS,
  DEVICE_COOKIE_PATH,
  RESET_DEVICE_COOKIE,
  RESET_DEVICE_COOKIE_PATH,
  signDeviceCookie,
  verifyDeviceCookie,
  type Device,
} from '../../../security/device-cookie';
import { sessionMemberId } from '@media-site/db/members';
import { SESSION_COOKIE } from '../../../security/sessions';
import type { AccountDeps } from '../../../account/deps';
import { entitlementsOf, mediaToken } from '../../../account/entitlements';
import { memberById, mintSeconds, type MemberRow } from '../../../account/repository';
import type { SignInClient } from './limits';

// Readable by the SPA (the session cookie is not): tells it whether asking /api/me is worth a request.
export const SIGNED_IN_COOKIE = 'signed_in';

/**
 * Our cookies through Koa's `ctx.cookies`: unsigned (values are random ids or carry their own HMAC;
 * app.keys is not set), SameSite=Lax, HttpOnly unless told otherwise, and `Secure` when `ctx.secure`
 * (a TLS socket, or https reported by a trusted proxy: security/client.ts). Lifetimes are written as
 * `Expires` (what the cookies package writes), from our clock.
 */
function cookie(ctx: Context, path: string, lifetimeSeconds: number | undefined, httpOnly = true): SetOption {
  return {
    path,
    sameSite: 'lax',
    httpOnly,
    secure: ctx.secure,
    signed: false,
    overwrite: true,
    ...(lifetimeSeconds === undefined ? {} : { maxAge: lifetimeSeconds * 1000 }),
  };
}

const readCookie = (ctx: Context, name: string) => ctx.cookies.get(name, { signed: false });

export function sessionCookieValue(ctx: Context): string | undefined {
  return readCookie(ctx, SESSION_COOKIE);
}

/** The address and, when it verifies, the device cookie of a sign-in attempt (`login_device`) or a reset request (`reset_device`). */
export function signInClient(ctx: Context, deps: AccountDeps, deviceCookie = DEVICE_COOKIE): SignInClient {
  // The address as the limits count it (an IPv6 /64 as one client): its budgets and hashing-queue share.
  return { address: addressBlock(ctx.ip), device: verifyDeviceCookie(deps.settings.signinKeys, readCookie(ctx, deviceCookie)) };
}

/**
 * After a successful sign-in: this browser is a known device for the member's username from now
 * on, for sign-in and for "Forgot password?" (one value, under each route's path).
 */
export function rememberDevice(ctx: Context, deps: AccountDeps, member: MemberRow, device: Device | undefined): void {
  const value = signDeviceCookie(deps.settings.signinKeys, member.username, device);
  ctx.cookies.set(DEVICE_COOKIE, value, cookie(ctx, DEVICE_COOKIE_PATH, DEVICE_COOKIE_DAYS * 86_400));
  ctx.cookies.set(RESET_DEVICE_COOKIE, value, cookie(ctx, RESET_DEVICE_COOKIE_PATH, DEVICE_COOKIE_DAYS * 86_400));
}

export async function currentMember(ctx: Context, deps: AccountDeps): Promise<MemberRow | undefined> {
  const id = await sessionMemberId(deps.knex, sessionCookieValue(ctx), deps.now());
  const member = id === undefined ? undefined : await memberById(deps.knex, id);
  // Disabling ends the sessions too; this covers a sign-in that raced with it.
  return member?.disabled_at === null ? member : undefined;
}

/**
 * Sets the session cookie (when given) and a fresh media token scoped to /members. The media token
 * cookie has no lifetime of its own (it goes when the browser closes): the token inside expires
 * after MEDIA_TOKEN_TTL_SECONDS by the media service's clock, and an `Expires` only minutes ahead
 * would be read by the browser's clock, dropping the cookie before the SPA's refresh on any client
 * whose clock runs a few minutes fast.
 */
export async function issueCookies(ctx: Context, deps: AccountDeps, member: MemberRow, session?: string): Promise<void> {
  const now = deps.now();
  if (session) {
    const lifetime = deps.settings.sessionTtlHours * 3600;
    ctx.cookies.set(SESSION_COOKIE, session, cookie(ctx, '/', lifetime));
    ctx.cookies.set(SIGNED_IN_COOKIE, '1', cookie(ctx, '/', lifetime, false));
  }
  const e = await entitlementsOf(deps.knex, member);
  const token = mediaToken(deps.settings.mediaKeys, member.id, e, now, deps.settings.mediaTokenTtlSeconds, mintSeconds(member, now));
  ctx.cookies.set(MEDIA_COOKIE, token, cookie(ctx, '/members', undefined));
}

/** An empty value makes the cookies package write an `Expires` in 1970: the browser drops them. */
export function clearCookies(ctx: Context): void {
  ctx.cookies.set(SESSION_COOKIE, '', cookie(ctx, '/', undefined));
  ctx.cookies.set(SIGNED_IN_COOKIE, '', cookie(ctx, '/', undefined, false));
  ctx.cookies.set(MEDIA_COOKIE, '', cookie(ctx, '/members', undefined));
}
