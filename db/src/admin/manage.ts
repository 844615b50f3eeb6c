import type { Knex } from 'knex';
import type { KeyRing } from '@media-site/contracts/token';
import type { Actor } from './accounts';
import { checkAdminEmail, checkAdminName } from './accounts';
import { appendAudit } from './audit';
import { AdminRuleError } from './errors';
import { keepAnOwner } from './owners';
import { isAdminRole, type AdminRole } from './roles';
import { sealSecret } from './secret-box';
import { newTotp } from './totp';
import { deletePasskeys } from './passkeys';

// Changes to an admin account beyond add and disable: a new role, a new TOTP secret, enable again,
// an e-mail address.
// One service under the console (/api/admin/admins, owner only) and the CLI (`admin role|totp|enable|email`);
// each change appends its audit row in the same transaction.

interface LockedAdmin {
  id: number;
  role: AdminRole;
  disabled_at: unknown;
}

/** The admin row, locked for the change, or 404. */
async function lockAdmin(trx: Knex.Transaction, name: string): Promise<LockedAdmin> {
  const row = await trx('admins')
    .where({ name: checkAdminName(name) })
    .forUpdate()
    .first('id', 'role', 'disabled_at');
  if (!row) throw new AdminRuleError('not_found', `no admin ${name}`);
  return { id: Number(row.id), role: row.role as AdminRole, disabled_at: row.disabled_at };
}

/** A new role for an admin; the last active owner stays one. Their sessions carry on under the new role. */
export async function changeAdminRole(
  db: Knex,
  a: { name: string; role: AdminRole; now: number } & Actor,
): Promise<{ before: AdminRole; after: AdminRole }> {
  if (!isAdminRole(a.role)) throw new AdminRuleError('bad_input', 'the role must be owner, moderator or support');
  return db.transaction(async (trx) => {
    const row = await lockAdmin(trx, a.name);
    if (row.role === a.role) throw new AdminRuleError('conflict', `${a.name} is a ${a.role} already`);
    if (a.role !== 'owner') await keepAnOwner(trx, row, a.name);
    await trx('admins').where({ id: row.id }).update({ role: a.role });
    await appendAudit(trx, {
      actor: a.actor,
      address: a.address,
      action: 'admin.role',
      target: a.name,
      before: { role: row.role },
      after: { role: a.role },
      at: a.now,
    });
    return { before: row.role, after: a.role };
  });
}

/**
 * A new TOTP secret for an admin: the recovery from a lost or exposed authenticator, or a stolen
 * console session. The old secret stops working at once, the replay guard starts over, their
 * console sessions end, and every passkey they have is revoked (one registered from a stolen
 * session would otherwise sign the thief in again), unless `keepPasskeys` says they are known
 * good. The secret and its enrolment URI are returned once, here only.
 */
export async function resetAdminTotp(
  db: Knex,
  a: { name: string; issuer: string; keys: KeyRing; now: number; keepPasskeys?: boolean } & Actor,
): Promise<{ secret: string; uri: string; sessions: number; passkeysRevoked: number }> {
  const totp = newTotp(checkAdminName(a.name), a.issuer);
  const done = await db.transaction(async (trx) => {
    const row = await lockAdmin(trx, a.name);
    await trx('admins')
      .where({ id: row.id })
      .update({ totp_secret: sealSecret(a.keys, totp.secret), totp_last_step: null });
    const sessions = await trx('admin_sessions').where({ admin_id: row.id }).delete();
    const passkeysRevoked = a.keepPasskeys
      ? 0
      : await deletePasskeys(trx, { ...a, admin: { id: row.id, name: a.name }, why: 'new TOTP secret' });
    await appendAudit(trx, {
      actor: a.actor,
      address: a.address,
      action: 'admin.totp_reset',
      target: a.name,
      after: { kid: a.keys.signing.kid, sessionsEnded: sessions, passkeysRevoked },
      at: a.now,
    });
    return { sessions, passkeysRevoked };
  });
  return { ...totp, ...done };
}

/** Lets a disabled admin sign in again, with the credentials they had (give a new TOTP secret first if those may be exposed). */
export async function enableAdmin(db: Knex, a: { name: string; now: number } & Actor): Promise<void> {
  await db.transaction(async (trx) => {
    const row = await lockAdmin(trx, a.name);
    if (row.disabled_at == null) throw new AdminRuleError('conflict', `admin ${a.name} is not disabled`);
    await trx('admins').where({ id: row.id }).update({ disabled_at: null });
    await appendAudit(trx, {
      actor: a.actor,
      address: a.address,
      action: 'admin.enable',
      target: a.name,
      before: { disabled: true },
      after: { disabled: false },
      at: a.now,
    });
  });
}

/** The address an admin's notices go to (a new passkey), or none (`null`). */
export async function setAdminEmail(db: Knex, a: { name: string; email: string | null; now: number } & Actor): Promise<void> {
  const email = checkAdminEmail(a.email);
  await db.transaction(async (trx) => {
    const row = await lockAdmin(trx, a.name);
    const before = await trx('admins').where({ id: row.id }).first('email');
    await trx('admins').where({ id: row.id }).update({ email });
    await appendAudit(trx, {
      actor: a.actor,
      address: a.address,
      action: 'admin.email',
      target: a.name,
      before: { email: before?.email ?? null },
      after: { email },
      at: a.now,
    });
  });
}
