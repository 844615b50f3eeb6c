import type { Knex } from 'knex';
import type { KeyRing } from '@media-site/contracts/token';
import { numOrNull } from '../row-values';
import { appendAudit } from './audit';
import { AdminRuleError } from './errors';
import { keepAnOwner } from './owners';
import { EMAIL, EMAIL_MAX } from '@media-site/contracts/member-rules';
import { ADMIN_NAME, isAdminRole, type AdminRole } from './roles';
import { needsReseal, openSecret, sealSecret } from './secret-box';
import { newTotp } from './totp';

// The one writer of the `admins` table: the operator CLI (`admin add|disable|list`) and the bff's
// console sign-in both go through here, and every change appends its audit row in the same transaction.

export interface AdminRow {
  id: number;
  name: string;
  role: AdminRole;
  disabledAt: number | null;
  createdAt: number;
}

export interface AdminSummary extends AdminRow {
  email: string | null;
  passkeys: number;
}

/** Who made a change and from where: an admin's name or `cli:<user>`, and the client address. */
export interface Actor {
  actor: string;
  address?: string;
}

export function adminRowOf(r: Record<string, unknown>): AdminRow {
  const role = r.role;
  if (!isAdminRole(role)) throw new Error(`admin ${String(r.name)} has an unknown role`);
  return { id: Number(r.id), name: String(r.name), role, disabledAt: numOrNull(r.disabled_at), createdAt: Number(r.created_at) };
}

export function checkAdminName(name: string): string {
  if (!ADMIN_NAME.test(name))
    throw new AdminRuleError('bad_input', 'the admin name must be 3-32 lower-case letters, digits or _, starting with a letter');
  return name;
}

/** An admin's notice address: the members' e-mail rule, no control characters; '' or null for none. */
export function checkAdminEmail(email: string | null | undefined): string | null {
  if (email === null || email === undefined || email.trim() === '') return null;
  const trimmed = email.trim();
  if (trimmed.length > EMAIL_MAX || !EMAIL.test(trimmed)) throw new AdminRuleError('bad_input', 'not an e-mail address');
  return trimmed;
}

export async function adminNamed(db: Knex, name: string): Promise<AdminRow | undefined> {
  const row = await db('admins').where({ name }).first();
  return row ? adminRowOf(row) : undefined;
}

export async function adminById(db: Knex, id: number): Promise<AdminRow | undefined> {
  const row = await db('admins').where({ id }).first();
  return row ? adminRowOf(row) : undefined;
}

/**
 * A new admin with a fresh TOTP secret, stored sealed under `keys` (ADMIN_SECRET_KEYS); the secret
 * and its enrolment URI are returned once, here only.
 */
export async function addAdmin(
  db: Knex,
  a: { name: string; role: AdminRole; email?: string | null; issuer: string; keys: KeyRing; now: number } & Actor,
): Promise<{ secret: string; uri: string }> {
  checkAdminName(a.name);
  const email = checkAdminEmail(a.email);
  if (!isAdminRole(a.role)) throw new AdminRuleError('bad_input', 'the role must be owner, moderator or support');
  const totp = newTotp(a.name, a.issuer);
  await db.transaction(async (trx) => {
    if (await trx('admins').where({ name: a.name }).first('id')) throw new AdminRuleError('conflict', `admin ${a.name} exists`);
    await trx('admins').insert({ name: a.name, role: a.role, email, totp_secret: sealSecret(a.keys, totp.secret), created_at: a.now });
    await appendAudit(trx, {
      actor: a.actor,
      address: a.address,
      action: 'admin.add',
      target: a.name,
      after: email ? { role: a.role, email } : { role: a.role },
      at: a.now,
    });
  });
  return totp;
}

/** Refuses sign-in from now on and ends the admin's console sessions; the last active owner stays. */
export async function disableAdmin(db: Knex, a: { name: string; now: number } & Actor): Promise<{ sessions: number }> {
  return db.transaction(async (trx) => {
    const row = await trx('admins')
      .where({ name: checkAdminName(a.name) })
      .forUpdate()
      .first('id', 'role', 'disabled_at');
    if (!row) throw new AdminRuleError('not_found', `no admin ${a.name}`);
    if (row.disabled_at != null) throw new AdminRuleError('conflict', `admin ${a.name} is already disabled`);
    await keepAnOwner(trx, { id: Number(row.id), role: row.role as AdminRole, disabled_at: row.disabled_at }, a.name);
    await trx('admins').where({ id: row.id }).update({ disabled_at: a.now });
    const sessions = await trx('admin_sessions').where({ admin_id: row.id }).delete();
    await appendAudit(trx, {
      actor: a.actor,
      address: a.address,
      action: 'admin.disable',
      target: a.name,
      before: { disabled: false },
      after: { disabled: true, sessionsEnded: sessions },
      at: a.now,
    });
    return { sessions };
  });
}

export async function listAdmins(db: Knex): Promise<AdminSummary[]> {
  const rows: Record<string, unknown>[] = await db('admins')
    .orderBy('name')
    .select('id', 'name', 'role', 'email', 'disabled_at', 'created_at');
  const keys: { admin_id: unknown; n: unknown }[] = await db('admin_passkeys')
    .groupBy('admin_id')
    .select('admin_id', db.raw('count(*) as n'));
  const count = new Map(keys.map((k) => [Number(k.admin_id), Number(k.n)]));
  return rows.map((r) => {
    const admin = adminRowOf(r);
    return { ...admin, email: r.email == null ? null : String(r.email), passkeys: count.get(admin.id) ?? 0 };
  });
}

/**
 * Seals every admin's TOTP secret under the first key of `keys`: plain rows from before encryption
 * and rows under an older key (key rotation). Audited as one `admin.rekey` row; the count re-sealed.
 */
export async function rekeyAdmins(db: Knex, a: { keys: KeyRing; now: number } & Actor): Promise<{ resealed: number }> {
  return db.transaction(async (trx) => {
    const rows: { id: number; name: string; totp_secret: string }[] = await trx('admins').forUpdate().select('id', 'name', 'totp_secret');
    const stale = rows.filter((r) => needsReseal(a.keys, r.totp_secret));
    for (const r of stale)
      await trx('admins')
        .where({ id: r.id })
        .update({ totp_secret: sealSecret(a.keys, openSecret(a.keys, r.totp_secret)) });
    await appendAudit(trx, {
      actor: a.actor,
      address: a.address,
      action: 'admin.rekey',
      after: { kid: a.keys.signing.kid, resealed: stale.length },
      at: a.now,
    });
    return { resealed: stale.length };
  });
}
