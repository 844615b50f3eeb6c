import type Router from '@koa/router';
import type {
  AdminTotpReset,
  AdminAdded,
  AdminDisabled,
  AdminEmailSet,
  AdminEnabled,
  AdminList,
  AdminPasskeys,
  AdminPasskeysRevoked,
  AdminRoleChanged,
  AdminsRekeyed,
} from '@media-site/contracts/admin';
import type { Context } from 'koa';
import { z } from 'zod';
import {
  addAdmin,
  adminNamed,
  ADMIN_NAME,
  ADMIN_ROLES,
  changeAdminRole,
  disableAdmin,
  enableAdmin,
  listAdmins,
  passkeyList,
  rekeyAdmins,
  resetAdminTotp,
  revokePasskeys,
  SealedSecretError,
  setAdminEmail,
} from '@media-site/db/admin';
import { EMAIL_MAX } from '@media-site/contracts/member-rules';
import { NotFoundError, UnavailableError } from '../../../errors';
import type { AccountDeps } from '../../../account/deps';
import { readBody } from '../../../security/body';
import { parseBody } from '../shared/parse';
import { parseParam } from '../shared/params';
import { requireAdmin, requireConfirmed, signedInAdmin } from './session';

// Admins from the console (owners only): list, add (the TOTP secret shown once), disable, enable,
// change role, set the notice e-mail, give a new TOTP secret (revoking their passkeys unless kept),
// list and revoke their passkeys, re-seal every secret under the first ADMIN_SECRET_KEYS key. Every
// change needs a session confirmed with a fresh code or passkey (requireConfirmed). The same db
// services as `admin add|list|disable|enable|role|email|totp|passkeys|revoke-passkeys|rekey`; each
// change audited in its transaction. The last active owner can be neither disabled nor demoted.

type Guard = (ctx: Context, next: () => Promise<unknown>) => Promise<void>;

const NAME_RULE = '3-32 lower-case letters, digits or _, starting with a letter';
const name = z.string().max(32, `at most 32 characters: ${NAME_RULE}`).regex(ADMIN_NAME, NAME_RULE);
const role = z.enum(ADMIN_ROLES, { message: 'the role must be owner, moderator or support' });
const email = z
  .string()
  .trim()
  .max(EMAIL_MAX, { error: `at most ${EMAIL_MAX} characters`, abort: true });
export const addBody = z.strictObject({ name, role, email: email.optional() });
export const roleBody = z.strictObject({ role });
export const emailBody = z.strictObject({ email });
export const totpBody = z.strictObject({ keepPasskeys: z.boolean().optional() });
export const revokeBody = z.strictObject({ id: z.number().int().positive().optional() });

/** An admin's name in the path. */
export const adminName = z
  .string()
  .max(32, { error: `not an admin name (${NAME_RULE})`, abort: true })
  .regex(ADMIN_NAME, `not an admin name (${NAME_RULE})`);

const nameParam = (ctx: Context): string => parseParam(adminName, ctx.params.name);

/** GET /api/admin/admins, /admins/:name/passkeys; POST /admins, /admins/rekey, /admins/:name/disable|enable|role|email|totp|passkeys/revoke. */
export function adminAccountRoutes(router: Router, deps: AccountDeps, origin: Guard): void {
  const reader = [origin, requireAdmin(deps, 'admins')] as const;
  const owner = [...reader, requireConfirmed(deps)] as const;
  const actor = (ctx: Context) => ({ actor: signedInAdmin(ctx).name, address: ctx.ip, now: deps.now() });
  const keys = deps.settings.adminSecretKeys;
  const issuer = deps.settings.site.name;
  router
    .get('/admin/admins', ...reader, async (ctx) => {
      ctx.body = { admins: await listAdmins(deps.knex) } satisfies AdminList;
    })
    .get('/admin/admins/:name/passkeys', ...reader, async (ctx) => {
      const target = await adminNamed(deps.knex, nameParam(ctx));
      if (!target) throw new NotFoundError('no such admin');
      ctx.body = { name: target.name, passkeys: await passkeyList(deps.knex, target.id) } satisfies AdminPasskeys;
    })
    .post('/admin/admins', ...owner, readBody(), async (ctx) => {
      const body = parseBody(addBody, ctx);
      const { secret, uri } = await addAdmin(deps.knex, { ...body, issuer, keys, ...actor(ctx) });
      ctx.status = 201;
      ctx.body = { name: body.name, role: body.role, secret, uri } satisfies AdminAdded;
    })
    .post('/admin/admins/rekey', ...owner, async (ctx) => {
      const done = await rekeyAdmins(deps.knex, { keys, ...actor(ctx) }).catch((err: unknown) => {
        if (!(err instanceof SealedSecretError)) throw err;
        deps.logger.error({ kid: err.kid, problem: err.problem }, `admin rekey re-sealed nothing: ${err.message}`);
        throw new UnavailableError(
          'Nothing was re-sealed: a TOTP secret is sealed under a key the server no longer holds. The server log names the key; put it back in ADMIN_SECRET_KEYS, or give that admin a new TOTP secret.',
        );
      });
      ctx.body = { ...done, kid: keys.signing.kid } satisfies AdminsRekeyed;
    })
    .post('/admin/admins/:name/disable', ...owner, async (ctx) => {
      const target = nameParam(ctx);
      const { sessions } = await disableAdmin(deps.knex, { name: target, ...actor(ctx) });
      ctx.body = { name: target, sessionsEnded: sessions } satisfies AdminDisabled;
    })
    .post('/admin/admins/:name/enable', ...owner, async (ctx) => {
      const target = nameParam(ctx);
      await enableAdmin(deps.knex, { name: target, ...actor(ctx) });
      ctx.body = { name: target } satisfies AdminEnabled;
    })
    .post('/admin/admins/:name/email', ...owner, readBody(), async (ctx) => {
      const target = nameParam(ctx);
      const body = parseBody(emailBody, ctx);
      await setAdminEmail(deps.knex, { name: target, email: body.email, ...actor(ctx) });
      ctx.body = { name: target, email: body.email || null } satisfies AdminEmailSet;
    })
    .post('/admin/admins/:name/passkeys/revoke', ...owner, readBody(), async (ctx) => {
      const target = nameParam(ctx);
      const { id } = parseBody(revokeBody, ctx);
      ctx.body = {
        name: target,
        revoked: await revokePasskeys(deps.knex, { adminName: target, id, ...actor(ctx) }),
      } satisfies AdminPasskeysRevoked;
    })
    .post('/admin/admins/:name/role', ...owner, readBody(), async (ctx) => {
      const target = nameParam(ctx);
      const body = parseBody(roleBody, ctx);
      ctx.body = {
        name: target,
        ...(await changeAdminRole(deps.knex, { name: target, role: body.role, ...actor(ctx) })),
      } satisfies AdminRoleChanged;
    })
    .post('/admin/admins/:name/totp', ...owner, readBody(), async (ctx) => {
      const target = nameParam(ctx);
      const { keepPasskeys } = parseBody(totpBody, ctx);
      const reset = await resetAdminTotp(deps.knex, { name: target, issuer, keys, keepPasskeys, ...actor(ctx) });
      ctx.body = {
        name: target,
        secret: reset.secret,
        uri: reset.uri,
        sessionsEnded: reset.sessions,
        passkeysRevoked: reset.passkeysRevoked,
      } satisfies AdminTotpReset;
    });
}
