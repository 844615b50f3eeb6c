import type Router from '@koa/router';
import type { AdminMe, Confirmation, OwnPasskeys, PasskeyAdded, PasskeyRenamed, PasskeyRevoked } from '@media-site/contracts/admin';
import type { Context } from 'koa';
import { z } from 'zod';
import {
  appendAudit,
  confirmAdminSession,
  confirmationFailed,
  confirmTotp,
  createAdminSession,
  passkeyList,
  renamePasskey,
  revokePasskeys,
  SealedSecretError,
  totpSignIn,
  type SignInOutcome,
} from '@media-site/db/admin';
import { ForbiddenError, UnauthenticatedError, UnavailableError } from '../../../errors';
import type { AccountDeps } from '../../../account/deps';
import { limitPerAddress } from '../../../security/address-limit';
import { readBody } from '../../../security/body';
import type { Device } from '../../../security/device-cookie';
import type { AttemptOutcome } from '../auth/limits';
import { parseBody } from '../shared/parse';
import { parseParam } from '../shared/params';
import { authenticationBody, passkeyNameBody, registrationBody, totpConfirmBody, totpSignInBody } from './schema';
import {
  adminCookieValue,
  clearAdminCookie,
  requireAdmin,
  requireConfirmed,
  sessionLimits,
  setAdminCookie,
  signedInAdmin,
} from './session';
import { adminSignInClient, chargeAdminCode, rememberAdminDevice } from './signin-limits';
import {
  authenticationOptions,
  confirmationOptions,
  confirmWithPasskey,
  passkeySignIn,
  registerPasskey,
  registrationOptions,
} from './webauthn';

// How an admin proves who they are: sign-in (a passkey, or name and TOTP code), the confirmation a
// session needs before sensitive changes, and the admin's own passkeys (list, add, name, revoke).

type Guard = (ctx: Context, next: () => Promise<unknown>) => Promise<void>;

/** Wrong confirmations a session may make before it ends (a stolen cookie cannot go on guessing codes). */
export const CONFIRM_FAILURES_MAX = 5;

/** A sign-in's end: a session cookie and a known-browser cookie, or 401 and no cookie at all. */
async function settle(ctx: Context, deps: AccountDeps, outcome: SignInOutcome, device: Device | undefined): Promise<void> {
  if (!outcome.ok) throw new UnauthenticatedError('Sign-in refused: check the name and the code, or use your passkey again.');
  setAdminCookie(ctx, await createAdminSession(deps.knex, outcome.admin.id, deps.now(), sessionLimits(deps)));
  rememberAdminDevice(ctx, deps, outcome.admin.name, device);
  ctx.body = { name: outcome.admin.name, role: outcome.admin.role } satisfies AdminMe;
}

/**
 * A stored TOTP secret the configured ADMIN_SECRET_KEYS cannot open is the operator's to fix, not
 * the admin's: 503, the key id in the log, a plain sentence to the browser (no key ids there).
 */
function sealedSecretUnavailable(deps: AccountDeps, name: string, err: unknown): unknown {
  if (!(err instanceof SealedSecretError)) return err;
  deps.logger.error(
    { admin: name, kid: err.kid, problem: err.problem },
    `console TOTP sign-in for ${name} is unavailable: ${err.message}; add key "${err.kid}" back to ADMIN_SECRET_KEYS (then run \`admin rekey\`), or give the admin a new TOTP secret`,
  );
  return new UnavailableError(
    'Sign-in with a code is unavailable: the server cannot read the stored secret for this account. Tell the site operator; a passkey may still work.',
  );
}

/** A passkey's number in the path. */
export const passkeyId = z
  .string()
  .regex(/^\d{1,9}$/, 'not a passkey id')
  .transform(Number);

const passkeyIdParam = (ctx: Context): number => parseParam(passkeyId, ctx.params.id);

/** This session may make sensitive changes for ADMIN_CONFIRM_MINUTES from now. */
async function confirmed(ctx: Context, deps: AccountDeps, method: 'totp' | 'passkey'): Promise<void> {
  const admin = signedInAdmin(ctx);
  const now = deps.now();
  const until = now + deps.settings.admin.confirmMs;
  await confirmAdminSession(deps.knex, adminCookieValue(ctx) ?? '', until);
  await appendAudit(deps.knex, {
    actor: admin.name,
    address: ctx.ip,
    action: 'admin.confirm',
    target: admin.name,
    after: { method },
    at: now,
  });
  ctx.body = { confirmedUntil: until } satisfies Confirmation;
}

/** A wrong confirmation: counted on the session, which ends at CONFIRM_FAILURES_MAX. */
async function notConfirmed(ctx: Context, deps: AccountDeps, method: 'totp' | 'passkey'): Promise<never> {
  const admin = signedInAdmin(ctx);
  const ended = await confirmationFailed(deps.knex, adminCookieValue(ctx) ?? '', CONFIRM_FAILURES_MAX);
  await appendAudit(deps.knex, {
    actor: admin.name,
    address: ctx.ip,
    action: 'admin.confirm_failed',
    target: admin.name,
    after: { method, sessionEnded: ended },
    at: deps.now(),
  });
  if (ended) {
    clearAdminCookie(ctx);
    throw new UnauthenticatedError('Too many failed confirmations: this console session has ended. Sign in again.');
  }
  throw new ForbiddenError(
    method === 'totp'
      ? 'That code is not right, or was used already: enter the next code from your authenticator app.'
      : 'The passkey did not confirm: try again, or enter a code from your authenticator app.',
  );
}

/** POST /api/admin/signin/*, /confirm/*; GET/POST /api/admin/passkeys... */
export function adminCredentialRoutes(router: Router, deps: AccountDeps, origin: Guard): void {
  const perAddress = limitPerAddress(deps.limiter, 'admin-signin', deps.settings.admin.signInPerMinute);
  const signIn = [origin, perAddress, readBody()];
  const confirm = [origin, perAddress, requireAdmin(deps), readBody()];
  const own = [origin, requireAdmin(deps)];
  const sensitive = [...own, requireConfirmed(deps)];
  router
    .post('/admin/signin/totp', ...signIn, async (ctx) => {
      const { name, code, altcha } = parseBody(totpSignInBody, ctx);
      const client = adminSignInClient(ctx, deps);
      const attempt = await chargeAdminCode(deps, name, client, altcha);
      let outcome: AttemptOutcome = 'unchecked';
      try {
        const result = await totpSignIn(deps.knex, deps.settings.adminSecretKeys, name, code, { address: ctx.ip, now: deps.now() }).catch(
          (err: unknown) => {
            throw sealedSecretUnavailable(deps, name, err);
          },
        );
        outcome = result.ok ? 'succeeded' : 'failed';
        await settle(ctx, deps, result, client.device);
      } finally {
        await attempt.settle(outcome);
      }
    })
    .post('/admin/signin/passkey/options', ...signIn, async (ctx) => {
      ctx.body = await authenticationOptions(ctx, deps);
    })
    .post('/admin/signin/passkey/verify', ...signIn, async (ctx) => {
      const { response } = parseBody(authenticationBody, ctx);
      await settle(ctx, deps, await passkeySignIn(ctx, deps, response), adminSignInClient(ctx, deps).device);
    })
    .post('/admin/confirm/totp', ...confirm, async (ctx) => {
      const { code } = parseBody(totpConfirmBody, ctx);
      const admin = signedInAdmin(ctx);
      const ok = await confirmTotp(deps.knex, deps.settings.adminSecretKeys, admin.id, code, deps.now()).catch((err: unknown) => {
        throw sealedSecretUnavailable(deps, admin.name, err);
      });
      await (ok ? confirmed(ctx, deps, 'totp') : notConfirmed(ctx, deps, 'totp'));
    })
    .post('/admin/confirm/passkey/options', ...confirm, async (ctx) => {
      ctx.body = await confirmationOptions(ctx, deps, signedInAdmin(ctx));
    })
    .post('/admin/confirm/passkey/verify', ...confirm, async (ctx) => {
      const { response } = parseBody(authenticationBody, ctx);
      const ok = await confirmWithPasskey(ctx, deps, signedInAdmin(ctx), response);
      await (ok ? confirmed(ctx, deps, 'passkey') : notConfirmed(ctx, deps, 'passkey'));
    })
    .get('/admin/passkeys', ...own, async (ctx) => {
      const admin = signedInAdmin(ctx);
      ctx.body = { passkeys: await passkeyList(deps.knex, admin.id), confirmedUntil: admin.freshUntil } satisfies OwnPasskeys;
    })
    .post('/admin/passkeys/options', ...sensitive, readBody(), async (ctx) => {
      ctx.body = await registrationOptions(ctx, deps, signedInAdmin(ctx));
    })
    .post('/admin/passkeys/verify', ...sensitive, readBody(), async (ctx) => {
      const { name, response } = parseBody(registrationBody, ctx);
      const label = name ?? `Passkey added ${new Date(deps.now()).toISOString().slice(0, 10)}`;
      ctx.status = 201;
      ctx.body = { passkey: await registerPasskey(ctx, deps, signedInAdmin(ctx), response, label) } satisfies PasskeyAdded;
    })
    .post('/admin/passkeys/:id/name', ...own, readBody(), async (ctx) => {
      const id = passkeyIdParam(ctx);
      const { name } = parseBody(passkeyNameBody, ctx);
      const admin = signedInAdmin(ctx);
      await renamePasskey(deps.knex, { admin, id, name, now: deps.now(), actor: admin.name, address: ctx.ip });
      ctx.body = { id, name } satisfies PasskeyRenamed;
    })
    .post('/admin/passkeys/:id/revoke', ...sensitive, async (ctx) => {
      const id = passkeyIdParam(ctx);
      const admin = signedInAdmin(ctx);
      await revokePasskeys(deps.knex, { adminName: admin.name, id, now: deps.now(), actor: admin.name, address: ctx.ip });
      ctx.body = { revoked: 1 } satisfies PasskeyRevoked;
    });
}
