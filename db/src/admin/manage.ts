import type { Knex } from 'knex';
import type { KeyRing } from '@media-site/contracts/token';
import type { Actor } from './accounts';
import { checkAdminName } from './accounts';
import { appendAudit } from './audit';
import { AdminRuleError } from './errors';
import { keepAnOwner } from './owners';
import { isAdminRole, type AdminRole } from './roles';
import { sealSecret } from './secret-box';
import { newTotp } from './totp';

// Changes to an admin account beyond add and disable (issue 24): a new role, a new TOTP secret.
// One service under the console (/api/admin/admins, owner only) and the CLI (`admin role|totp`);
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
 * A new TOTP secret for an admin (a lost or exposed authenticator): the old one stops working at
 * once, the replay guard and any lockout start over, and their console sessions end. The secret and
 * its enrolment URI are returned once, here only.
 */
export async function resetAdminTotp(
  db: Knex,
  a: { name: string; issuer: string; keys: KeyRing; now: number } & Actor,
): Promise<{ secret: string; uri: string; sessions: number }> {
  const totp = newTotp(checkAdminName(a.name), a.issuer);
  const sessions = await db.transaction(async (trx) => {
    const row = await lockAdmin(trx, a.name);
    await trx('admins')
      .where({ id: row.id })
      .update({ totp_secret: sealSecret(a.keys, totp.secret), totp_last_step: null, failed_signins: 0, locked_until: null });
    const ended = await trx('admin_sessions').where({ admin_id: row.id }).delete();
    await appendAudit(trx, {
      actor: a.actor,
      address: a.address,
      action: 'admin.totp_reset',
      target: a.name,
      after: { kid: a.keys.signing.kid, sessionsEnded: ended },
      at: a.now,
    });
    return ended;
  });
  return { ...totp, sessions };
}
