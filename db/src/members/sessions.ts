import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';

// Members' signed-in sessions (member_sessions): opened and closed by the bff, ended by the bff's
// password change and reset and by the operator's disable and sign-out everywhere.

// Only a hash is stored: a leaked database row cannot be replayed as a cookie.
const hashOf = (raw: string) => createHash('sha256').update(raw).digest('hex');

/** A new session; returns the raw id for the cookie. */
export async function createSession(db: Knex, memberId: number, now: number, ttlMs: number): Promise<string> {
  const raw = randomBytes(32).toString('base64url');
  await db('member_sessions').insert({ id_hash: hashOf(raw), member_id: memberId, created_at: now, expires_at: now + ttlMs });
  // Expired rows go on the way; one indexed delete per sign-in is cheap.
  await db('member_sessions').where('expires_at', '<', now).delete();
  return raw;
}

export async function sessionMemberId(db: Knex, raw: string | undefined, now: number): Promise<number | undefined> {
  if (!raw || !/^[\w-]{43}$/.test(raw)) return undefined;
  const row = await db('member_sessions')
    .where({ id_hash: hashOf(raw) })
    .where('expires_at', '>', now)
    .first('member_id');
  return row ? Number(row.member_id) : undefined;
}

export async function deleteSession(db: Knex, raw: string | undefined): Promise<void> {
  if (raw)
    await db('member_sessions')
      .where({ id_hash: hashOf(raw) })
      .delete();
}

/** Ends every session of the member; how many there were. */
export async function endSessionsOf(db: Knex, memberId: number): Promise<number> {
  return db('member_sessions').where({ member_id: memberId }).delete();
}
