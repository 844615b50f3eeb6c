import type Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import {
  addAdmin,
  ADMIN_NAME,
  ADMIN_ROLES,
  changeAdminRole,
  disableAdmin,
  listAdmins,
  rekeyAdmins,
  resetAdminTotp,
  SealedSecretError,
} from '@media-site/db/admin';
import { BadRequestError, UnavailableError } from '../../../errors';
import type { AccountDeps } from '../../../account/deps';
import { readBody } from '../../../security/body';
import { parseBody } from '../shared/parse';
import { requireAdmin, signedInAdmin } from './session';

// Admins from the console (issue 24, owners only): list, add (the TOTP secret shown once), disable,
// change role, give a new TOTP secret, re-seal every secret under the first ADMIN_SECRET_KEYS key.
// The same db services as `admin add|list|disable|role|totp|rekey`; each change audited in its
// transaction. The last active owner can be neither disabled nor demoted (db/src/admin/owners.ts).

type Guard = (ctx: Context, next: () => Promise<unknown>) => Promise<void>;

const NAME_RULE = '3-32 lower-case letters, digits or _, starting with a letter';
const name = z.string().max(32, `at most 32 characters: ${NAME_RULE}`).regex(ADMIN_NAME, NAME_RULE);
const role = z.enum(ADMIN_ROLES, { message: 'the role must be owner, moderator or support' });
const addBody = z.strictObject({ name, role });
const roleBody = z.strictObject({ role });

function nameParam(ctx: Context): string {
  const value = ctx.params.name ?? '';
  if (value.length > 32 || !ADMIN_NAME.test(value)) throw new BadRequestError(`not an admin name (${NAME_RULE})`);
  return value;
}

/** GET /api/admin/admins; POST /admins, /admins/rekey, /admins/:name/disable|role|totp. */
export function adminAccountRoutes(router: Router, deps: AccountDeps, origin: Guard): void {
  const owner = [origin, requireAdmin(deps, 'admins')] as const;
  const actor = (ctx: Context) => ({ actor: signedInAdmin(ctx).name, address: ctx.ip, now: deps.now() });
  const keys = deps.settings.adminSecretKeys;
  const issuer = deps.settings.site.name;
  router
    .get('/admin/admins', ...owner, async (ctx) => {
      ctx.body = { admins: await listAdmins(deps.knex) };
    })
    .post('/admin/admins', ...owner, readBody(), async (ctx) => {
      const body = parseBody(addBody, ctx);
      const { secret, uri } = await addAdmin(deps.knex, { ...body, issuer, keys, ...actor(ctx) });
      ctx.status = 201;
      ctx.body = { name: body.name, role: body.role, secret, uri };
    })
    .post('/admin/admins/rekey', ...owner, async (ctx) => {
      const done = await rekeyAdmins(deps.knex, { keys, ...actor(ctx) }).catch((err: unknown) => {
        if (!(err instanceof SealedSecretError)) throw err;
        deps.logger.error({ kid: err.kid, problem: err.problem }, `admin rekey re-sealed nothing: ${err.message}`);
        throw new UnavailableError(
          'Nothing was re-sealed: a TOTP secret is sealed under a key the server no longer holds. The server log names the key; put it back in ADMIN_SECRET_KEYS, or give that admin a new TOTP secret.',
        );
      });
      ctx.body = { ...done, kid: keys.signing.kid };
    })
    .post('/admin/admins/:name/disable', ...owner, async (ctx) => {
      const target = nameParam(ctx);
      const { sessions } = await disableAdmin(deps.knex, { name: target, ...actor(ctx) });
      ctx.body = { name: target, sessionsEnded: sessions };
    })
    .post('/admin/admins/:name/role', ...owner, readBody(), async (ctx) => {
      const target = nameParam(ctx);
      const body = parseBody(roleBody, ctx);
      ctx.body = { name: target, ...(await changeAdminRole(deps.knex, { name: target, role: body.role, ...actor(ctx) })) };
    })
    .post('/admin/admins/:name/totp', ...owner, async (ctx) => {
      const target = nameParam(ctx);
      const { secret, uri, sessions } = await resetAdminTotp(deps.knex, { name: target, issuer, keys, ...actor(ctx) });
      ctx.body = { name: target, secret, uri, sessionsEnded: sessions };
    });
}
