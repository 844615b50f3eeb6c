import {
  addAdmin,
  AdminRuleError,
  changeAdminRole,
  disableAdmin,
  isAdminRole,
  listAdmins,
  rekeyAdmins,
  resetAdminTotp,
} from '@media-site/db/admin';
import { isoTime } from '@media-site/contracts/iso-time';
import { cliActor, type Command, type CommandContext } from './types';

// The operator console's accounts (issue 24): the same db services as the console's owner screen
// (/api/admin/admins); every change is written to the console's audit log as `cli:<user>`.

const bad = (message: string) => new AdminRuleError('bad_input', message);

async function adminCommand([sub, name]: string[], flags: Record<string, unknown>, ctx: CommandContext): Promise<number> {
  const now = (ctx.io.now ?? Date.now)();
  const { knex, io } = ctx;
  if (sub === 'list') {
    const admins = await listAdmins(knex);
    if (flags.json) io.out(JSON.stringify(admins, null, 2));
    else if (admins.length === 0) io.out('no admins');
    else
      for (const a of admins)
        io.out(
          `${a.name.padEnd(20)}  ${a.role.padEnd(9)}  ${a.disabledAt === null ? 'active  ' : 'disabled'}  passkeys ${a.passkeys}  since ${isoTime(a.createdAt, '-', 's')}`,
        );
    return 0;
  }
  if (sub === 'rekey') {
    const { resealed } = await rekeyAdmins(knex, { keys: ctx.config.adminSecretKeys, now, actor: cliActor(ctx) });
    io.out(`re-sealed ${resealed} admin TOTP secret(s) under ADMIN_SECRET_KEYS key "${ctx.config.adminSecretKeys.signing.kid}"`);
    return 0;
  }
  if (sub !== 'add' && sub !== 'disable' && sub !== 'role' && sub !== 'totp') throw bad(`unknown admin subcommand: ${String(sub)}`);
  if (!name) throw bad(`admin ${sub} needs a name`);
  if (sub === 'disable') {
    const { sessions } = await disableAdmin(knex, { name, now, actor: cliActor(ctx) });
    io.out(`disabled: ${name} (${sessions} console session(s) ended)`);
    return 0;
  }
  if (sub === 'totp') {
    const reset = await resetAdminTotp(knex, {
      name,
      issuer: ctx.config.siteName,
      keys: ctx.config.adminSecretKeys,
      now,
      actor: cliActor(ctx),
    });
    io.out(`new TOTP secret for ${name} (the old one no longer works; ${reset.sessions} console session(s) ended)
TOTP enrolment (shown once: give it to ${name} now, then clear your scrollback):
  URI:    ${reset.uri}
  secret: ${reset.secret}`);
    return 0;
  }
  const role = flags.role;
  if (!isAdminRole(role)) throw bad('--role must be owner, moderator or support');
  if (sub === 'role') {
    const changed = await changeAdminRole(knex, { name, role, now, actor: cliActor(ctx) });
    io.out(`role of ${name}: ${changed.before} -> ${changed.after}`);
    return 0;
  }
  const { secret, uri } = await addAdmin(knex, {
    name,
    role,
    issuer: ctx.config.siteName,
    keys: ctx.config.adminSecretKeys,
    now,
    actor: cliActor(ctx),
  });
  io.out(`added: ${name} (${role})
TOTP enrolment (shown once: add it to an authenticator app now, then clear your scrollback):
  URI:    ${uri}
  secret: ${secret}
Then open /admin on the site, sign in with the name and a 6-digit code, and add a passkey there
(Add a passkey, in the console's header): see docs/operate.md "Operator console accounts".`);
  return 0;
}

export const adminCommands: Record<string, Command> = {
  admin: {
    usage: `admin add|disable|role|totp|list|rekey [<name>] [options]
    Operator console accounts (docs/operate.md, "Operator console accounts").
    add <name> --role owner|moderator|support   prints a one-time TOTP enrolment URI and secret
    disable <name>   refuses sign-in from now on and ends the admin's console sessions (not the last active owner)
    role <name> --role owner|moderator|support   a new role (the last active owner stays one)
    totp <name>      a new TOTP secret, printed once (lost or exposed authenticator); ends their sessions
    list [--json]
    rekey   seals every admin's TOTP secret under the first ADMIN_SECRET_KEYS key (plain rows from
            before encryption, rows under a retired key); the bff also does it at each good sign-in`,
    options: { role: { type: 'string' }, json: { type: 'boolean' } },
    minPositionals: 1,
    positionals: 2,
    run: adminCommand,
  },
};
