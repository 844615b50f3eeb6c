import type Router from '@koa/router';
import type { Context } from 'koa';
import { Readable } from 'node:stream';
import {
  appendAudit,
  auditCsv,
  auditPage,
  createAdminSession,
  deleteAdminSession,
  totpSignIn,
  type SignInOutcome,
} from '@media-site/db/admin';
import { disableMember, listMembers } from '@media-site/db/members';
import { openReports } from '@media-site/db/reports';
import { DISABLE_REASON_MAX } from '@media-site/contracts/member-rules';
import { z } from 'zod';
import { RateLimitedError, UnauthenticatedError } from '../../../errors';
import type { AccountDeps } from '../../../account/deps';
import { limitPerAddress } from '../../../security/address-limit';
import { readBody } from '../../../security/body';
import { parseBody, parseQuery } from '../shared/parse';
import { auditQuery, authenticationBody, memberSearchQuery, registrationBody, totpSignInBody } from './schema';
import { adminCookieValue, adminOrigin, clearAdminCookie, requireAdmin, sessionLimits, setAdminCookie, signedInAdmin } from './session';
import { adminChangeRoutes, usernameParam } from './changes';
import { adminIngestRoutes } from './ingests';
import { adminTeaserRoutes } from './teasers';
import { authenticationOptions, passkeySignIn, registerPasskey, registrationOptions } from './webauthn';

const MEMBER_RESULTS = 50;

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
        await totpSignIn(deps.knex, deps.settings.adminSecretKeys, name, code, { address: ctx.ip, now: deps.now(), lockout: lockout() }),
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
      const entries = await auditPage(deps.knex, { before, limit });
      ctx.body = { entries, next: entries.length === limit ? entries[entries.length - 1]!.id : null };
    })
    .get('/admin/audit.csv', origin, requireAdmin(deps, 'audit'), (ctx) => {
      ctx.type = 'text/csv; charset=utf-8';
      ctx.attachment('audit.csv');
      ctx.body = Readable.from(auditCsv(deps.knex));
    })
    .get('/admin/reports', origin, requireAdmin(deps, 'reports'), async (ctx) => {
      ctx.body = { reports: await openReports(deps.knex) };
    })
    .get('/admin/members', origin, requireAdmin(deps, 'members'), async (ctx) => {
      const { q } = parseQuery(memberSearchQuery, ctx);
      ctx.body = { members: await listMembers(deps.knex, { q, limit: MEMBER_RESULTS }) };
    })
    .post('/admin/members/:username/disable', origin, requireAdmin(deps, 'members'), readBody(), async (ctx) => {
      const username = usernameParam(ctx);
      const { reason } = parseBody(disableBody, ctx);
      const by = { actor: signedInAdmin(ctx).name, address: ctx.ip };
      const { sessions } = await disableMember(deps.knex, username, reason, deps.now(), by);
      ctx.body = { username, sessionsEnded: sessions };
    });
  adminChangeRoutes(router, deps, origin);
  adminIngestRoutes(router, deps, origin);
  adminTeaserRoutes(router, deps, origin);
}
