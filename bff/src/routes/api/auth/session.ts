import type { Context } from 'koa';
import { SESSION_COOKIE as MEDIA_COOKIE } from '@media-site/media-service/token';
import { clientAddress, isHttps } from '../../../security/client';
import { readCookie, serializeCookie } from '../../../security/cookies';
import { DEVICE_COOKIE, DEVICE_COOKIE_DAYS, DEVICE_COOKIE_PATH, signDeviceCookie, verifyDeviceCookie, type Device } from '../../../security/device-cookie';
import { SESSION_COOKIE, sessionMemberId } from '../../../security/sessions';
import type { AccountDeps } from '../members/deps';
import { entitlementsOf, mediaToken } from '../members/entitlements';
import { memberById, type MemberRow } from '../members/repository';
import type { SignInClient } from './limits';

// Readable by the SPA (the session cookie is not): tells it whether asking /api/me is worth a request.
export const SIGNED_IN_COOKIE = 'signed_in';

export function sessionCookieValue(ctx: Context): string | undefined {
  return readCookie(ctx.get('Cookie'), SESSION_COOKIE);
}

export function callerAddress(ctx: Context, deps: AccountDeps): string {
  return clientAddress(ctx, deps.settings.trustedProxies);
}

/** The address and, when it verifies, the device cookie of a sign-in attempt. */
export function signInClient(ctx: Context, deps: AccountDeps): SignInClient {
  return { address: callerAddress(ctx, deps), device: verifyDeviceCookie(deps.settings.mediaKeys, readCookie(ctx.get('Cookie'), DEVICE_COOKIE)) };
}

/** After a successful sign-in: this browser is a known device for the member's username from now on. */
export function rememberDevice(ctx: Context, deps: AccountDeps, member: MemberRow, device: Device | undefined): void {
  const value = signDeviceCookie(deps.settings.mediaKeys, member.username, device);
  const secure = isHttps(ctx, deps.settings.trustedProxies);
  ctx.append('Set-Cookie', serializeCookie(DEVICE_COOKIE, value, { path: DEVICE_COOKIE_PATH, maxAgeSeconds: DEVICE_COOKIE_DAYS * 86_400, secure }));
}

export async function currentMember(ctx: Context, deps: AccountDeps): Promise<MemberRow | undefined> {
  const id = await sessionMemberId(deps.knex, sessionCookieValue(ctx), deps.now());
  const member = id === undefined ? undefined : await memberById(deps.knex, id);
  // Disabling ends the sessions too; this covers a sign-in that raced with it.
  return member?.disabled_at === null ? member : undefined;
}

/** Sets the session cookie (when given) and a fresh media token scoped to /members. */
export async function issueCookies(ctx: Context, deps: AccountDeps, member: MemberRow, session?: string): Promise<void> {
  const secure = isHttps(ctx, deps.settings.trustedProxies);
  const now = deps.now();
  if (session) {
    const maxAgeSeconds = deps.settings.sessionTtlHours * 3600;
    ctx.append('Set-Cookie', serializeCookie(SESSION_COOKIE, session, { path: '/', maxAgeSeconds, secure }));
    ctx.append('Set-Cookie', serializeCookie(SIGNED_IN_COOKIE, '1', { path: '/', maxAgeSeconds, secure, httpOnly: false }));
  }
  const token = mediaToken(deps.settings.mediaKeys, member.id, await entitlementsOf(deps.knex, member), now, deps.settings.mediaTokenTtlSeconds);
  ctx.append('Set-Cookie', serializeCookie(MEDIA_COOKIE, token, { path: '/members', maxAgeSeconds: deps.settings.mediaTokenTtlSeconds, secure }));
}

export function clearCookies(ctx: Context, deps: AccountDeps): void {
  const secure = isHttps(ctx, deps.settings.trustedProxies);
  ctx.append('Set-Cookie', serializeCookie(SESSION_COOKIE, '', { path: '/', maxAgeSeconds: 0, secure }));
  ctx.append('Set-Cookie', serializeCookie(SIGNED_IN_COOKIE, '', { path: '/', maxAgeSeconds: 0, secure, httpOnly: false }));
  ctx.append('Set-Cookie', serializeCookie(MEDIA_COOKIE, '', { path: '/members', maxAgeSeconds: 0, secure }));
}
