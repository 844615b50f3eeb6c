import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { numOrNull } from '../row-values';
import { adminRowOf, type AdminRow } from './accounts';

// Console sessions: short, and separate from members' (member_sessions). Only a hash of the cookie
// value is stored. A session ends `idleMs` after its last request or `absoluteMs` after sign-in.

export interface SessionLimits {
  idleMs: number;
  absoluteMs: number;
}

const hashOf = (raw: string) => createHash('sha256').update(`admin:${raw}`).digest('hex');

export async function createAdminSession(db: Knex, adminId: number, now: number, limits: SessionLimits): Promise<string> {
  const raw = randomBytes(32).toString('base64url');
  await db('admin_sessions').insert({ id_hash: hashOf(raw), admin_id: adminId, created_at: now, last_seen_at: now });
  // Ended sessions go on the way.
  await db('admin_sessions')
    .where('last_seen_at', '<', now - limits.idleMs)
    .orWhere('created_at', '<', now - limits.absoluteMs)
    .delete();
  return raw;
}

/** A signed-in admin, and until when the session may make sensitive changes (`confirmAdminSession`). */
export interface SessionAdmin extends AdminRow {
  freshUntil: number | null;
}

/** The signed-in admin for a cookie value (and the session's idle clock restarts), or undefined. */
export async function adminOfSession(
  db: Knex,
  raw: string | undefined,
  now: number,
  limits: SessionLimits,
): Promise<SessionAdmin | undefined> {
  if (!raw || !/^[\w-]{43}$/.test(raw)) return undefined;
  const id_hash = hashOf(raw);
  const row = await db('admin_sessions as s')
    .join('admins as a', 'a.id', 's.admin_id')
    .where({ 's.id_hash': id_hash })
    .where('s.last_seen_at', '>', now - limits.idleMs)
    .where('s.created_at', '>', now - limits.absoluteMs)
    .whereNull('a.disabled_at')
    .first('a.id', 'a.name', 'a.role', 'a.disabled_at', 'a.created_at', 's.fresh_until');
  if (!row) return undefined;
  await db('admin_sessions').where({ id_hash }).update({ last_seen_at: now });
  return { ...adminRowOf(row), freshUntil: numOrNull(row.fresh_until) };
}

/**
 * The admin proved it is them again (a fresh TOTP code or passkey) in this session: sensitive
 * changes are allowed until `until`. A stolen cookie alone never gets here.
 */
export async function confirmAdminSession(db: Knex, raw: string, until: number): Promise<void> {
  await db('admin_sessions')
    .where({ id_hash: hashOf(raw) })
    .update({ fresh_until: until, reauth_failures: 0 });
}

/**
 * A wrong confirmation in this session. After `max` of them the session ends (true): whoever holds
 * a stolen cookie cannot go on guessing codes with it.
 */
export async function confirmationFailed(db: Knex, raw: string, max: number): Promise<boolean> {
  const id_hash = hashOf(raw);
  await db('admin_sessions').where({ id_hash }).increment('reauth_failures', 1);
  const ended = await db('admin_sessions').where({ id_hash }).where('reauth_failures', '>=', max).delete();
  return ended > 0;
}

export async function deleteAdminSession(db: Knex, raw: string | undefined): Promise<void> {
  if (raw)
    await db('admin_sessions')
      .where({ id_hash: hashOf(raw) })
      .delete();
}
