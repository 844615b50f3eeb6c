import {
  addAdmin,
  adminNamed,
  AdminRuleError,
  changeAdminRole,
  checkAdminName,
  disableAdmin,
  enableAdmin,
  isAdminRole,
  listAdmins,
  passkeyList,
  rekeyAdmins,
  resetAdminTotp,
  revokePasskeys,
  setAdminEmail,
} from '@media-site/db/admin';
import { isoTime } from '@media-site/contracts/iso-time';
import { cliActor, type Command, type CommandContext } from './types';

// The operator console's accounts: the same db services as the console's owner screen
// (/api/admin/admins); every change is written to the console's audit log as `cli:<user>`.

const bad = (message: string) => new AdminRuleError('bad_input', message);

const SUBCOMMANDS = ['add', 'disable', 'enable', 'role', 'email', 'totp', 'passkeys', 'revoke-passkeys'];

async function adminCommand([sub, name, value]: string[], flags: Record<string, unknown>, ctx: CommandContext): Promise<number> {
  const now = (ctx.io.now ?? Date.now)();
  const { knex, io } = ctx;
  if (sub === 'list') {
    const admins = await listAdmins(knex);
    if (flags.json) io.out(JSON.stringify(admins, null, 2));
    else if (admins.length === 0) io.out('no admins');
    else
      for (const a of admins)
        io.out(
          `${a.name.padEnd(20)}  ${a.role.padEnd(9)}  ${a.disabledAt === null ? 'active  ' : 'disabled'}  passkeys ${a.passkeys}  since ${isoTime(a.createdAt, '-', 's')}  ${a.email ?? ''}`.trimEnd(),
        );
    return 0;
  }
  if (sub === 'rekey') {
    const { resealed } = await rekeyAdmins(knex, { keys: ctx.config.adminSecretKeys, now, actor: cliActor(ctx) });
    io.out(`re-sealed ${resealed} admin TOTP secret(s) under ADMIN_SECRET_KEYS key "${ctx.config.adminSecretKeys.signing.kid}"`);
    return 0;
  }
  if (!SUBCOMMANDS.includes(sub ?? '')) throw bad(`unknown admin subcommand: ${String(sub)}`);
  if (!name) throw bad(`admin ${sub} needs a name`);
  if (sub === 'disable') {
    const { sessions } = await disableAdmin(knex, { name, now, actor: cliActor(ctx) });
    io.out(`disabled: ${name} (${sessions} console session(s) ended)`);
    return 0;
  }
  if (sub === 'enable') {
    await enableAdmin(knex, { name, now, actor: cliActor(ctx) });
    io.out(`enabled: ${name} may sign in again with the passkeys and TOTP secret they had (if those may be exposed: admin totp ${name})`);
    return 0;
  }
  if (sub === 'email') {
    if (value === undefined) throw bad(`admin email ${name} needs an address, or '' for none`);
    await setAdminEmail(knex, { name, email: value, now, actor: cliActor(ctx) });
    io.out(value.trim() ? `${name}'s notices (a new passkey) go to ${value.trim()}` : `${name} has no notice address`);
    return 0;
  }
  if (sub === 'passkeys') {
    const admin = await adminNamed(knex, checkAdminName(name));
    if (!admin) throw new AdminRuleError('not_found', `no admin ${name}`);
    const keys = await passkeyList(knex, admin.id);
    if (flags.json) io.out(JSON.stringify(keys, null, 2));
    else if (keys.length === 0) io.out(`${name} has no passkey`);
    else
      for (const k of keys)
        io.out(
          `${String(k.id).padStart(5)}  ${k.name.padEnd(32)}  added ${isoTime(k.createdAt, '-', 's')}  last used ${isoTime(k.lastUsedAt, 'never', 's')}`,
        );
    return 0;
  }
  if (sub === 'revoke-passkeys') {
    const id = flags.id === undefined ? undefined : Number(flags.id);
    if (id !== undefined && !(Number.isInteger(id) && id > 0)) throw bad('--id must be a passkey id (admin passkeys <name> lists them)');
    if (id === undefined && !flags.all) throw bad('say which: --id <id> (admin passkeys <name> lists them) or --all');
    const revoked = await revokePasskeys(knex, { adminName: checkAdminName(name), id, now, actor: cliActor(ctx) });
    io.out(`revoked ${revoked} passkey(s) of ${name}`);
    return 0;
  }
  if (sub === 'totp') {
    const reset = await resetAdminTotp(knex, {
      name,
      issuer: ctx.config.siteName,
      keys: ctx.config.adminSecretKeys,
      now,
      keepPasskeys: flags['keep-passkeys'] === true,
      actor: cliActor(ctx),
    });
    io.out(`new TOTP secret for ${name} (the old one no longer works; ${reset.sessions} console session(s) ended; ${reset.passkeysRevoked} passkey(s) revoked)
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
    email: typeof flags.email === 'string' ? flags.email : null,
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
    usage: `admin add|disable|enable|role|email|totp|passkeys|revoke-passkeys|list|rekey [<name>] [options]
    Operator console accounts (docs/operate.md, "Operator console accounts").
    add <name> --role owner|moderator|support [--email <address>]   prints a one-time TOTP enrolment URI and secret
    disable <name>   refuses sign-in from now on and ends the admin's console sessions (not the last active owner)
    enable <name>    lets a disabled admin sign in again (with the credentials they had)
    role <name> --role owner|moderator|support   a new role (the last active owner stays one)
    email <name> <address>|''   where the admin's notices go (a passkey added); '' for none
    totp <name> [--keep-passkeys]   the recovery for a lost or exposed authenticator or a stolen console
                     session: a new TOTP secret, printed once; ends their sessions and revokes every
                     passkey they have (unless --keep-passkeys)
    passkeys <name> [--json]   lists the admin's passkeys (id, name, added, last used)
    revoke-passkeys <name> --id <id>|--all
    list [--json]
    rekey   seals every admin's TOTP secret under the first ADMIN_SECRET_KEYS key (plain rows from
            before encryption, rows under a retired key); the bff also does it at each good sign-in`,
    options: {
      role: { type: 'string' },
      email: { type: 'string' },
      json: { type: 'boolean' },
      id: { type: 'string' },
      all: { type: 'boolean' },
      'keep-passkeys': { type: 'boolean' },
    },
    minPositionals: 1,
    positionals: 3,
    run: adminCommand,
  },
};
