import type Router from '@koa/router';
import type { Context } from 'koa';
import { Readable } from 'node:stream';
import {
  appendAudit,
  createAdminSession,
  deleteAdminSession,
  exportAuditCsv,
  readAuditPage,
  SealedSecretError,
  totpSignIn,
  type SignInOutcome,
} from '@media-site/db/admin';
import { disableMember, searchMembers } from '@media-site/db/members';
import { DISABLE_REASON_MAX } from '@media-site/contracts/member-rules';
import { z } from 'zod';
import { RateLimitedError, UnauthenticatedError, UnavailableError } from '../../../errors';
import type { AccountDeps } from '../../../account/deps';
import { limitPerAddress } from '../../../security/address-limit';
import { readBody } from '../../../security/body';
import { parseBody, parseQuery } from '../shared/parse';
import { auditQuery, authenticationBody, memberSearchQuery, registrationBody, totpSignInBody } from './schema';
import {
  adminCookieValue,
  adminOrigin,
  clearAdminCookie,
  reader,
  requireAdmin,
  sessionLimits,
  setAdminCookie,
  signedInAdmin,
} from './session';
import { adminChangeRoutes, usernameParam } from './changes';
import { reportDeskRoutes } from './report-desk';
import { adminAccountRoutes } from './admin-accounts';
import { adminMemberRoutes } from './members';
import { adminContentRoutes } from './content';
import { adminDashboardRoutes } from './dashboard';
import { adminIngestRoutes } from './ingests';
import { adminTeaserRoutes } from './teasers';
import { authenticationOptions, passkeySignIn, registerPasskey, registrationOptions } from './webauthn';

const disableBody = z.strictObject({ reason: z.string().trim().min(1, 'give a reason').max(DISABLE_REASON_MAX) });

/** A sign-in's end: a session cookie, or 401 (423 while locked) and no cookie at all. */
async function settle(ctx: Context, deps: AccountDeps, outcome: SignInOutcome): Promise<void> {
  if (!outcome.ok) {
    if (outcome.reason === 'locked')
      throw new RateLimitedError('Too many failed sign-ins: this account is locked for a while. Try again later.');
    throw new UnauthenticatedError('Sign-in refused: check the name and the code, or use your passkey again.');
  }
  setAdminCookie(ctx, await createAdminSession(deps.knex, outcome.admin.id, deps.now(), sessionLimits(deps)));
  ctx.body = { name: outcome.admin.name, role: outcome.admin.role };
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

/** The operator console's API (issue 24): sign-in, the session, and one route per role. */
export function adminRoutes(router: Router, deps: AccountDeps): void {
  const origin = adminOrigin(deps);
  const signIn = [origin, limitPerAddress(deps.limiter, 'admin-signin', deps.settings.admin.signInPerMinute), readBody()];
  const lockout = () => ({ failures: deps.settings.admin.lockoutFailures, lockMs: deps.settings.admin.lockoutMs });
  router
    .post('/admin/signin/totp', ...signIn, async (ctx) => {
      const { name, code } = parseBody(totpSignInBody, ctx);
      await settle(
        ctx,
        deps,
        await totpSignIn(deps.knex, deps.settings.adminSecretKeys, name, code, {
          address: ctx.ip,
          now: deps.now(),
          lockout: lockout(),
        }).catch((err: unknown) => {
          throw sealedSecretUnavailable(deps, name, err);
        }),
      );
    })
    .post('/admin/signin/passkey/options', ...signIn, async (ctx) => {
      ctx.body = await authenticationOptions(ctx, deps);
    })
    .post('/admin/signin/passkey/verify', ...signIn, async (ctx) => {
      const { response } = parseBody(authenticationBody, ctx);
      await settle(ctx, deps, await passkeySignIn(ctx, deps, response));
    })
    .post('/admin/signout', origin, requireAdmin(deps), async (ctx) => {
      const admin = signedInAdmin(ctx);
      await deleteAdminSession(deps.knex, adminCookieValue(ctx));
      await appendAudit(deps.knex, { actor: admin.name, address: ctx.ip, action: 'admin.signout', target: admin.name, at: deps.now() });
      clearAdminCookie(ctx);
      ctx.status = 204;
    })
    .get('/admin/me', origin, requireAdmin(deps), (ctx) => {
      const { name, role } = signedInAdmin(ctx);
      ctx.body = { name, role };
    })
    .post('/admin/passkeys/options', origin, requireAdmin(deps), readBody(), async (ctx) => {
      ctx.body = await registrationOptions(ctx, deps, signedInAdmin(ctx));
    })
    .post('/admin/passkeys/verify', origin, requireAdmin(deps), readBody(), async (ctx) => {
      await registerPasskey(ctx, deps, signedInAdmin(ctx), parseBody(registrationBody, ctx).response);
      ctx.status = 204;
    })
    .get('/admin/audit', origin, requireAdmin(deps, 'audit'), async (ctx) => {
      const { before, limit } = parseQuery(auditQuery, ctx);
      const entries = await readAuditPage(deps.knex, { before, limit }, reader(ctx, deps));
      ctx.body = { entries, next: entries.length === limit ? entries[entries.length - 1]!.id : null };
    })
    .get('/admin/audit.csv', origin, requireAdmin(deps, 'audit'), async (ctx) => {
      const csv = await exportAuditCsv(deps.knex, reader(ctx, deps));
      ctx.type = 'text/csv; charset=utf-8';
      ctx.attachment('audit.csv');
      ctx.body = Readable.from(csv);
    })
    .get('/admin/members', origin, requireAdmin(deps, 'members'), async (ctx) => {
      const { q } = parseQuery(memberSearchQuery, ctx);
      ctx.body = { members: await searchMembers(deps.knex, q, reader(ctx, deps)) };
    })
    .post('/admin/members/:username/disable', origin, requireAdmin(deps, 'members'), readBody(), async (ctx) => {
      const username = usernameParam(ctx);
      const { reason } = parseBody(disableBody, ctx);
      const by = { actor: signedInAdmin(ctx).name, address: ctx.ip };
      const { sessions } = await disableMember(deps.knex, username, reason, deps.now(), by);
      ctx.body = { username, sessionsEnded: sessions };
    });
  adminChangeRoutes(router, deps, origin);
  reportDeskRoutes(router, deps, origin);
  adminAccountRoutes(router, deps, origin);
  adminMemberRoutes(router, deps, origin);
  adminContentRoutes(router, deps, origin);
  adminDashboardRoutes(router, deps, origin);
  adminIngestRoutes(router, deps, origin);
  adminTeaserRoutes(router, deps, origin);
}
