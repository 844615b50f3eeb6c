import type { Context, Next } from 'koa';
import type { SetOption } from 'cookies';
import { adminOfSession, roleMay, type AdminAbility, type Reader, type SessionAdmin } from '@media-site/db/admin';
import { AppError, ForbiddenError, UnauthenticatedError } from '../../../errors';
import type { AccountDeps } from '../../../account/deps';
import { requireSameOrigin } from '../../../security/origin';

/**
 * The console's session cookie: its own name (a member's `sid` never counts here, and this one
 * never counts on member routes), `Path=/api/admin` so the browser sends it only to the console's
 * API (the /admin pages are static and need none; `Path=/admin` would never reach /api/admin),
 * `SameSite=Strict`, HttpOnly, `Secure` behind TLS (ctx.secure, as for members' cookies), and no
 * lifetime of its own: the server ends it after ADMIN_SESSION_IDLE_MINUTES idle or ADMIN_SESSION_HOURS.
 */
export const ADMIN_COOKIE = 'admin_sid';
export const ADMIN_COOKIE_PATH = '/api/admin';

const cookieOptions = (ctx: Context): SetOption => ({
  path: ADMIN_COOKIE_PATH,
  sameSite: 'strict',
  httpOnly: true,
  secure: ctx.secure,
  signed: false,
  overwrite: true,
});

export const adminCookieValue = (ctx: Context) => ctx.cookies.get(ADMIN_COOKIE, { signed: false });

export function setAdminCookie(ctx: Context, raw: string): void {
  ctx.cookies.set(ADMIN_COOKIE, raw, cookieOptions(ctx));
}

export function clearAdminCookie(ctx: Context): void {
  ctx.cookies.set(ADMIN_COOKIE, '', cookieOptions(ctx));
}

export const sessionLimits = (deps: AccountDeps) => ({
  idleMs: deps.settings.admin.sessionIdleMs,
  absoluteMs: deps.settings.admin.sessionAbsoluteMs,
});

type Guard = (ctx: Context, next: Next) => Promise<void>;

/**
 * Same-origin on every console route, reads included: a browser's Sec-Fetch-Site must be
 * same-origin (or none: typed in the address bar), and a state change also needs the site's
 * Origin (or Referer), as for members' forms (security/origin.ts). Every answer is no-store.
 */
export function adminOrigin(deps: AccountDeps): Guard {
  const sameOrigin = requireSameOrigin(deps.settings.allowedOrigins);
  return async function adminSameOrigin(ctx, next) {
    ctx.set('Cache-Control', 'no-store');
    const site = ctx.get('Sec-Fetch-Site');
    if (site !== '' && site !== 'same-origin' && site !== 'none')
      throw new ForbiddenError('console requests must come from the console itself');
    await sameOrigin(ctx, next);
  };
}

const ABILITY_TEXT: Record<AdminAbility, string> = {
  admins: 'manage admins',
  audit: 'read the audit log',
  reports: 'handle reports',
  takedowns: 'take content down or restore it',
  content: 'change content',
  'content:read': 'see content',
  members: 'see or change members',
  payments: 'see or change payments',
  operations: 'see the purge outbox, recorded errors and backups, or switch maintenance mode',
  queues: 'see or act on the queues',
  prices: 'change prices',
};

/** A console session (else 401, whatever member session the browser holds) whose role may `ability` (else 403). */
export function requireAdmin(deps: AccountDeps, ability?: AdminAbility): Guard {
  return async function adminOnly(ctx, next) {
    const admin = await adminOfSession(deps.knex, adminCookieValue(ctx), deps.now(), sessionLimits(deps));
    if (!admin) throw new UnauthenticatedError('console sign-in required');
    if (ability && !roleMay(admin.role, ability)) throw new ForbiddenError(`the ${admin.role} role may not ${ABILITY_TEXT[ability]}`);
    ctx.state.admin = admin;
    await next();
  };
}

export const signedInAdmin = (ctx: Context): SessionAdmin => ctx.state.admin as SessionAdmin;

/**
 * After requireAdmin, on sensitive changes (a passkey, an admin, a role, a secret): the session
 * must have been confirmed with a fresh TOTP code or passkey within ADMIN_CONFIRM_MINUTES
 * (POST /api/admin/confirm/...), so a stolen console cookie alone cannot make them.
 */
export function requireConfirmed(deps: AccountDeps): Guard {
  return async function confirmedOnly(ctx, next) {
    const { freshUntil } = signedInAdmin(ctx);
    if (freshUntil === null || freshUntil <= deps.now())
      throw new AppError('confirm_required', 'Confirm it is you first: use your passkey or enter a new code from your authenticator app.');
    await next();
  };
}

/** Who is reading personal data, for its audit row: the signed-in admin, the client address, now. */
export const reader = (ctx: Context, deps: AccountDeps): Reader => ({ actor: signedInAdmin(ctx).name, address: ctx.ip, now: deps.now() });
