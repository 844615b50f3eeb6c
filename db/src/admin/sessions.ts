import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
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

/** The signed-in admin for a cookie value (and the session's idle clock restarts), or undefined. */
export async function adminOfSession(db: Knex, raw: string | undefined, now: number, limits: SessionLimits): Promise<AdminRow | undefined> {
  if (!raw || !/^[\w-]{43}$/.test(raw)) return undefined;
  const id_hash = hashOf(raw);
  const row = await db('admin_sessions as s')
    .join('admins as a', 'a.id', 's.admin_id')
    .where({ 's.id_hash': id_hash })
    .where('s.last_seen_at', '>', now - limits.idleMs)
    .where('s.created_at', '>', now - limits.absoluteMs)
    .whereNull('a.disabled_at')
    .first('a.id', 'a.name', 'a.role', 'a.disabled_at', 'a.created_at');
  if (!row) return undefined;
  await db('admin_sessions').where({ id_hash }).update({ last_seen_at: now });
  return adminRowOf(row);
}

export async function deleteAdminSession(db: Knex, raw: string | undefined): Promise<void> {
  if (raw)
    await db('admin_sessions')
      .where({ id_hash: hashOf(raw) })
      .delete();
}
