import type { Knex } from 'knex';
import { numOrNull, strOrNull } from '../row-values';
import type { Actor } from '../admin/accounts';
import { appendAudit } from '../admin/audit';
import { MemberRuleError } from './errors';
import { endSessionsOf } from './sessions';
import { memberNamed } from './username';

// The one writer of the `members` table: the operator CLI's member commands and the bff's account
// module (a settled sign-up payment, a chargeback, a password or e-mail change) both go through here.

const DAY_MS = 86_400_000;

export interface MemberSummary {
  username: string;
  email: string;
  createdAt: number;
  /** Unix ms the membership is paid through (active or cancelled subscriptions); null: none. */
  paidUntil: number | null;
  vods: number;
  revokedAt: number | null;
  disabledAt: number | null;
  disabledReason: string | null;
}

async function memberId(db: Knex, username: string): Promise<number> {
  const row = await memberNamed(db, username).first('id');
  if (!row) throw new MemberRuleError('not_found', `no member ${username}`);
  return Number(row.id);
}

/** A new member row: the operator's `member add`, and the bff when a sign-up payment settles. */
export async function insertMember(db: Knex, m: { username: string; passwordHash: string; email: string; now: number }): Promise<number> {
  const [id] = await db('members').insert({ username: m.username, password_hash: m.passwordHash, email: m.email, created_at: m.now });
  return Number(id);
}

/** A member with, when `days` > 0, a membership paid through now + days (no provider subscription). */
export async function addMember(
  db: Knex,
  m: { username: string; passwordHash: string; email: string; days: number; now: number },
  by?: Actor,
): Promise<number> {
  return db.transaction(async (trx) => {
    if (await memberNamed(trx, m.username).first('id')) throw new MemberRuleError('conflict', `member ${m.username} already exists`);
    const memberId = await insertMember(trx, m);
    if (m.days > 0) {
      await trx('subscriptions').insert({
        member_id: memberId,
        kind: 'membership',
        vod_id: null,
        provider_subscription_id: null,
        status: 'active',
        paid_until: m.now + m.days * DAY_MS,
        created_at: m.now,
        updated_at: m.now,
      });
    }
    if (by) await appendAudit(trx, { ...by, action: 'member.add', target: m.username, after: { email: m.email, days: m.days }, at: m.now });
    return memberId;
  });
}

/**
 * From `now` on, the media service refuses every token, download link and edge URL the member was
 * given before (the bff lists `access_valid_from` on its revocation list): what ends sessions must
 * also end what the sessions minted. Never moves back.
 */
export async function bumpAccessValidFrom(db: Knex | Knex.Transaction, id: number, now: number): Promise<void> {
  await db('members')
    .where({ id })
    .andWhere((q) => q.whereNull('access_valid_from').orWhere('access_valid_from', '<', now))
    .update({ access_valid_from: now });
}

/**
 * A chargeback, refund, return or void: keeps the first revocation's time; only the operator's
 * `member enable` clears it. What the member was given before stays refused after that too (the
 * valid-from time).
 */
export async function revokeMember(db: Knex, id: number, at: number): Promise<void> {
  await db('members').where({ id }).whereNull('revoked_at').update({ revoked_at: at });
  await bumpAccessValidFrom(db, id, at);
}

/** A new password hash; the caller ends the sessions and bumps the valid-from time in the same transaction. */
export async function setPasswordHash(db: Knex, id: number, passwordHash: string): Promise<void> {
  await db('members').where({ id }).update({ password_hash: passwordHash });
}

/** A confirmed e-mail change. */
export async function setEmail(db: Knex, id: number, email: string): Promise<void> {
  await db('members').where({ id }).update({ email });
}

/**
 * Marks the member disabled, ends every session and everything they minted (which stays refused
 * after a later `member enable`); returns how many sessions there were.
 */
export async function disableMember(db: Knex, username: string, reason: string, now: number, by?: Actor): Promise<{ sessions: number }> {
  return db.transaction(async (trx) => {
    const id = await memberId(trx, username);
    const updated = await trx('members').where({ id }).whereNull('disabled_at').update({ disabled_at: now, disabled_reason: reason });
    await bumpAccessValidFrom(trx, id, now);
    if (updated === 0) throw new MemberRuleError('conflict', `member ${username} is already disabled`);
    const sessions = await endSessionsOf(trx, id);
    if (by) {
      const after = { disabled: true, reason, sessionsEnded: sessions };
      await appendAudit(trx, { ...by, action: 'member.disable', target: username, before: { disabled: false }, after, at: now });
    }
    return { sessions };
  });
}

/**
 * The one way back for a member: clears an operator's disable and a chargeback/refund/return/void
 * revocation (nothing else ever clears `revoked_at`). Purchases that were charged back stay
 * withdrawn (their subscriptions keep status `revoked`); everything else the member bought returns.
 */
export async function enableMember(
  db: Knex,
  username: string,
  by?: Actor & { now: number },
): Promise<{ wasDisabled: boolean; wasRevoked: boolean }> {
  return db.transaction(async (trx) => {
    const id = await memberId(trx, username);
    const row = await trx('members').where({ id }).first('disabled_at', 'revoked_at');
    const was = { wasDisabled: row?.disabled_at != null, wasRevoked: row?.revoked_at != null };
    if (!was.wasDisabled && !was.wasRevoked) throw new MemberRuleError('conflict', `member ${username} is neither disabled nor revoked`);
    await trx('members').where({ id }).update({ disabled_at: null, disabled_reason: null, revoked_at: null });
    if (by) {
      const before = { disabled: was.wasDisabled, revoked: was.wasRevoked };
      const entry = { actor: by.actor, address: by.address, target: username, at: by.now };
      await appendAudit(trx, { ...entry, action: 'member.enable', before, after: { disabled: false, revoked: false } });
    }
    return was;
  });
}

/**
 * Ends every session of the member (sign out everywhere, by support or the CLI) and everything
 * those sessions minted (the access valid-from time moves to `now`); audited as `member.signout_all`.
 */
export async function endMemberSessions(db: Knex, username: string, by: Actor & { now: number }): Promise<{ sessions: number }> {
  return db.transaction(async (trx) => {
    const id = await memberId(trx, username);
    await bumpAccessValidFrom(trx, id, by.now);
    const sessions = await endSessionsOf(trx, id);
    const entry = { actor: by.actor, address: by.address, target: username, at: by.now };
    await appendAudit(trx, { ...entry, action: 'member.signout_all', after: { sessionsEnded: sessions } });
    return { sessions };
  });
}

/** Every member, or (`search`) those whose username or e-mail contains `q`, at most `limit` of them. */
export async function listMembers(db: Knex, search?: { q: string; limit: number }): Promise<MemberSummary[]> {
  const query = db('members').orderBy('username');
  if (search) {
    // '!' escapes LIKE's wildcards: a backslash means different things to MariaDB and SQLite.
    const like = `%${search.q.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`)}%`;
    query
      .where((w) => w.whereRaw("lower(username) like ? escape '!'", [like]).orWhereRaw("lower(email) like ? escape '!'", [like]))
      .limit(search.limit);
  }
  const members: Record<string, unknown>[] = await query.select(
    'id',
    'username',
    'email',
    'created_at',
    'revoked_at',
    'disabled_at',
    'disabled_reason',
  );
  const paid: { member_id: unknown; until: unknown }[] = await db('subscriptions')
    .where({ kind: 'membership' })
    .whereIn('status', ['active', 'cancelled'])
    .groupBy('member_id')
    .select('member_id', db.raw('max(paid_until) as until'));
  const vods: { member_id: unknown; n: unknown }[] = await db('subscriptions')
    .where({ kind: 'vod', status: 'active' })
    .groupBy('member_id')
    .select('member_id', db.raw('count(*) as n'));
  const paidBy = new Map(paid.map((r) => [Number(r.member_id), numOrNull(r.until)]));
  const vodsBy = new Map(vods.map((r) => [Number(r.member_id), Number(r.n)]));
  return members.map((r) => ({
    username: String(r.username),
    email: String(r.email),
    createdAt: Number(r.created_at),
    paidUntil: paidBy.get(Number(r.id)) ?? null,
    vods: vodsBy.get(Number(r.id)) ?? 0,
    revokedAt: numOrNull(r.revoked_at),
    disabledAt: numOrNull(r.disabled_at),
    disabledReason: strOrNull(r.disabled_reason),
  }));
}
