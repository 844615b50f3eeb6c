import type { Knex } from 'knex';
import { isSqlite } from '../knex';
import { numOrNull, strOrNull } from '../row-values';
import type { Actor } from '../admin/accounts';
import { appendAudit, recordRead, type Reader } from '../admin/audit';
import { MemberRuleError } from './errors';
import { memberNamed } from './username';
import type { AttemptView, MemberDetail, MemberFound } from '@media-site/contracts/admin';

// Support's view of one member and their payments: the console's Members screen and the
// operator CLI (`member extend`) read and change members through here. Every query is bounded: a
// search answers at most SEARCH_MAX rows, a member's detail at most DETAIL_ROWS of each list.

const DAY_MS = 86_400_000;

export const SEARCH_MAX = 50;
/** Support's search: 1 to 100 characters (the console's query; its audit row's target). */
export const SEARCH_QUERY_MAX = 100;
export const DETAIL_ROWS = 50;
/** `member extend --days` and the console's extend: whole days, 1 to 366. */
export const EXTEND_DAYS_MIN = 1;
export const EXTEND_DAYS_MAX = 366;
export const EXTEND_REASON_MAX = 200;
/** An open attempt (pending or unknown) older than this is stuck: no answer and no webhook settled it. */
export const STUCK_AFTER_MS = 5 * 60_000;

const bad = (message: string) => new MemberRuleError('bad_input', message);

/** Exact payment references: an attempt id, a provider subscription id, a transaction id or a payment token. */
async function usernamesByReference(db: Knex, ref: string): Promise<{ memberIds: number[]; usernames: string[] }> {
  const memberIds = new Set<number>();
  const usernames = new Set<string>();
  const byId = /^\d{1,9}$/.test(ref);
  // A reference too long for every column matches none: no query (an empty WHERE group would match all).
  if (byId || ref.length <= 64) {
    const attempts: Record<string, unknown>[] = await db('payment_attempts')
      .where((w) => {
        if (byId) void w.orWhere('id', Number(ref));
        if (ref.length <= 32) void w.orWhere('provider_subscription_id', ref);
        void w.orWhere('payment_token', ref);
      })
      .limit(SEARCH_MAX)
      .select('member_id', 'username');
    for (const a of attempts) {
      if (a.member_id !== null) memberIds.add(Number(a.member_id));
      else usernames.add(String(a.username));
    }
  }
  const subscriptionIds = new Set<string>(ref.length <= 32 ? [ref] : []);
  if (ref.length <= 80) {
    const events: Record<string, unknown>[] = await db('webhook_events')
      .where('transaction_id', ref)
      .limit(SEARCH_MAX)
      .select('subscription_id');
    for (const e of events) if (e.subscription_id !== null) subscriptionIds.add(String(e.subscription_id));
  }
  if (subscriptionIds.size > 0) {
    const subs: Record<string, unknown>[] = await db('subscriptions')
      .whereIn('provider_subscription_id', [...subscriptionIds])
      .limit(SEARCH_MAX)
      .select('member_id');
    for (const s of subs) memberIds.add(Number(s.member_id));
    const more: Record<string, unknown>[] = await db('payment_attempts')
      .whereIn('provider_subscription_id', [...subscriptionIds])
      .limit(SEARCH_MAX)
      .select('member_id', 'username');
    for (const a of more) {
      if (a.member_id !== null) memberIds.add(Number(a.member_id));
      else usernames.add(String(a.username));
    }
  }
  return { memberIds: [...memberIds], usernames: [...usernames] };
}

/** Paid-until and VOD counts for these members only (never an aggregate over the whole table). */
async function summaries(db: Knex, rows: Record<string, unknown>[], matched: MemberFound['matched']): Promise<MemberFound[]> {
  const ids = rows.map((r) => Number(r.id));
  const subs: Record<string, unknown>[] =
    ids.length === 0 ? [] : await db('subscriptions').whereIn('member_id', ids).select('member_id', 'kind', 'status', 'paid_until');
  return rows.map((r) => {
    const own = subs.filter((s) => Number(s.member_id) === Number(r.id));
    const paid = own
      .filter((s) => s.kind === 'membership' && (s.status === 'active' || s.status === 'cancelled'))
      .map((s) => numOrNull(s.paid_until))
      .filter((n): n is number => n !== null);
    return {
      username: String(r.username),
      email: String(r.email),
      createdAt: Number(r.created_at),
      paidUntil: paid.length > 0 ? Math.max(...paid) : null,
      vods: own.filter((s) => s.kind === 'vod' && s.status === 'active').length,
      disabledAt: numOrNull(r.disabled_at),
      disabledReason: strOrNull(r.disabled_reason),
      account: true,
      matched,
    };
  });
}

const MEMBER_COLUMNS = ['id', 'username', 'email', 'created_at', 'disabled_at', 'disabled_reason'];

/**
 * Members whose username or e-mail contains `q`, and those a payment reference in `q` names
 * exactly; at most SEARCH_MAX, references first. A sign-up attempt whose account does not exist
 * (its charge is in doubt) is found too, as `account: false`.
 */
export async function findMembers(db: Knex, q: string): Promise<MemberFound[]> {
  const ref = q.trim();
  const byRef = await usernamesByReference(db, ref);
  const refRows: Record<string, unknown>[] =
    byRef.memberIds.length === 0 ? [] : await db('members').whereIn('id', byRef.memberIds).limit(SEARCH_MAX).select(MEMBER_COLUMNS);
  // '!' escapes LIKE's wildcards: a backslash means different things to MariaDB and SQLite.
  const like = `%${ref.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`)}%`;
  const nameRows: Record<string, unknown>[] = await db('members')
    .where((w) => w.whereRaw("lower(username) like ? escape '!'", [like]).orWhereRaw("lower(email) like ? escape '!'", [like]))
    .orderBy('username')
    .limit(SEARCH_MAX)
    .select(MEMBER_COLUMNS);
  const seen = new Set(refRows.map((r) => Number(r.id)));
  const found = [
    ...(await summaries(db, refRows, 'reference')),
    ...(await summaries(
      db,
      nameRows.filter((r) => !seen.has(Number(r.id))),
      'name',
    )),
  ];
  const known = new Set(found.map((m) => m.username.toLowerCase()));
  for (const username of byRef.usernames) {
    if (known.has(username.toLowerCase()) || (await memberNamed(db, username).first('id'))) continue;
    const a = await db('payment_attempts').where({ username }).orderBy('id', 'desc').first('email', 'created_at');
    found.unshift({
      username,
      email: String(a?.email ?? ''),
      createdAt: Number(a?.created_at ?? 0),
      paidUntil: null,
      vods: 0,
      disabledAt: null,
      disabledReason: null,
      account: false,
      matched: 'reference',
    });
    known.add(username.toLowerCase());
  }
  return found.slice(0, SEARCH_MAX);
}

/**
 * Support's search, recorded as `member.search` with the query (it may be an e-mail address: the
 * log is the owners' to read) and whose rows were shown, before the answer.
 */
export async function searchMembers(db: Knex, q: string, reader: Reader): Promise<MemberFound[]> {
  const found = await findMembers(db, q);
  await recordRead(db, reader, 'member.search', q.trim().slice(0, SEARCH_QUERY_MAX), {
    found: found.length,
    usernames: found.map((m) => m.username),
  });
  return found;
}

function stepOf(status: string, declineText: string | null, confirmed: boolean): string {
  const why = declineText ? `: ${declineText}` : '';
  switch (status) {
    case 'pending':
      return 'step 4 of 4 (process payment): sent to the provider, no answer yet';
    case 'unknown':
      return `step 4 of 4 (process payment): the answer was lost${why}; waiting for the provider's webhook or a reconcile`;
    case 'approved':
      return confirmed ? 'done: approved, and the provider’s webhook confirmed it' : 'done: approved (no webhook for it yet)';
    case 'declined':
      return `stopped at step 4 of 4: declined${why}`;
    default:
      return `stopped: nothing was charged${why}`;
  }
}

/** Everything support needs about one member (or a username a sign-up attempt holds), each list bounded. */
export async function memberDetail(db: Knex, username: string, now: number): Promise<MemberDetail> {
  const m = await memberNamed(db, username).first('id', 'username', 'email', 'created_at', 'disabled_at', 'disabled_reason', 'revoked_at');
  const id = m ? Number(m.id) : null;
  const attemptQuery = db('payment_attempts as a')
    .leftJoin('vods as v', 'v.id', 'a.vod_id')
    .orderBy('a.id', 'desc')
    .limit(DETAIL_ROWS)
    .select('a.*', 'v.path as vod_path');
  if (id === null) attemptQuery.where('a.username', username).whereNull('a.member_id');
  else attemptQuery.where((w) => w.where('a.member_id', id).orWhere((o) => o.where('a.username', m!.username).whereNull('a.member_id')));
  const attemptRows: Record<string, unknown>[] = await attemptQuery;
  if (!m && attemptRows.length === 0)
    throw new MemberRuleError('not_found', `no member ${username}, and no payment attempt for that username`);

  const subs: Record<string, unknown>[] =
    id === null
      ? []
      : await db('subscriptions as s')
          .leftJoin('vods as v', 'v.id', 's.vod_id')
          .where('s.member_id', id)
          .orderBy('s.id', 'desc')
          .limit(DETAIL_ROWS * 2)
          .select('s.*', 'v.path as vod_path', 'v.updatename as vod_title');
  const providerIds = new Set<string>();
  for (const r of [...subs, ...attemptRows]) if (r.provider_subscription_id) providerIds.add(String(r.provider_subscription_id));
  const events: Record<string, unknown>[] =
    providerIds.size === 0
      ? []
      : await db('webhook_events')
          .whereIn('subscription_id', [...providerIds])
          .orderBy('id', 'desc')
          .limit(DETAIL_ROWS)
          .select('id', 'event_type', 'transaction_id', 'subscription_id', 'received_at', 'outcome');
  const confirmed = new Set(events.map((e) => String(e.subscription_id)));

  const memberships = subs.filter((s) => s.kind === 'membership');
  const paid = memberships
    .filter((s) => s.status === 'active' || s.status === 'cancelled')
    .map((s) => numOrNull(s.paid_until))
    .filter((n): n is number => n !== null);
  const paidUntil = paid.length > 0 ? Math.max(...paid) : null;
  const withdrawn = m !== undefined && (m.disabled_at !== null || m.revoked_at !== null);
  const state = withdrawn ? 'withdrawn' : paidUntil === null ? 'none' : paidUntil > now ? 'active' : 'lapsed';

  let sessions: MemberDetail['sessions'] = { count: 0, lastSignInAt: null, expiresAt: null };
  if (id !== null) {
    const s = await db('member_sessions')
      .where({ member_id: id })
      .where('expires_at', '>', now)
      .first(db.raw('count(*) as n'), db.raw('max(created_at) as last'), db.raw('max(expires_at) as until'));
    sessions = { count: Number(s?.n ?? 0), lastSignInAt: numOrNull(s?.last), expiresAt: numOrNull(s?.until) };
  }

  return {
    username: m ? String(m.username) : username,
    account: m
      ? {
          email: String(m.email),
          createdAt: Number(m.created_at),
          disabledAt: numOrNull(m.disabled_at),
          disabledReason: strOrNull(m.disabled_reason),
          revokedAt: numOrNull(m.revoked_at),
        }
      : null,
    membership: {
      paidUntil,
      state,
      subscriptions: memberships.map((s) => ({
        id: Number(s.id),
        status: String(s.status),
        paidUntil: numOrNull(s.paid_until),
        providerSubscriptionId: strOrNull(s.provider_subscription_id),
        createdAt: Number(s.created_at),
      })),
    },
    vods: subs
      .filter((s) => s.kind === 'vod')
      .map((s) => ({
        path: String(s.vod_path ?? '(removed)'),
        title: String(s.vod_title ?? ''),
        status: String(s.status),
        boughtAt: Number(s.created_at),
      })),
    sessions,
    attempts: attemptRows.map((a) => {
      const status = String(a.status);
      const open = status === 'pending' || status === 'unknown';
      const sub = strOrNull(a.provider_subscription_id);
      return {
        id: Number(a.id),
        kind: String(a.kind),
        vod: strOrNull(a.vod_path ?? null),
        amount: String(a.amount),
        currencyCode: Number(a.currency_code),
        status,
        step: stepOf(status, strOrNull(a.decline_text), sub !== null && confirmed.has(sub)),
        providerSubscriptionId: sub,
        declineText: strOrNull(a.decline_text),
        createdAt: Number(a.created_at),
        updatedAt: Number(a.updated_at),
        stuck: open && Number(a.created_at) < now - STUCK_AFTER_MS,
      };
    }),
    webhooks: events.map((e) => ({
      id: Number(e.id),
      eventType: String(e.event_type),
      transactionId: String(e.transaction_id),
      subscriptionId: strOrNull(e.subscription_id),
      receivedAt: Number(e.received_at),
      outcome: strOrNull(e.outcome),
    })),
  };
}

/** One member's detail, recorded as `member.view` before the answer (an unknown name shows nothing and records nothing). */
export async function viewMember(db: Knex, username: string, reader: Reader): Promise<MemberDetail> {
  const detail = await memberDetail(db, username, reader.now);
  await recordRead(db, reader, 'member.view', detail.username);
  return detail;
}

/** Checks `member extend`'s and the console's input: whole days 1..366 and a reason of 1..200 characters. */
export function checkExtension(days: number, reason: string): void {
  if (!Number.isInteger(days) || days < EXTEND_DAYS_MIN || days > EXTEND_DAYS_MAX)
    throw bad(`days must be a whole number from ${EXTEND_DAYS_MIN} to ${EXTEND_DAYS_MAX}`);
  if (reason.trim() === '') throw bad('give a reason');
  if (reason.length > EXTEND_REASON_MAX) throw bad(`the reason is longer than ${EXTEND_REASON_MAX} characters`);
}

/**
 * Extends the membership by `days` from its paid-until time (or from now, when it has lapsed or
 * there is none: then a membership without a provider subscription is added). The bff reads
 * paid-until from the database on every /api/me and playback, so access follows at once; a renewal
 * webhook later adds its period to the extended time. Audited as `member.extend` with before/after.
 */
export async function extendMembership(
  db: Knex,
  username: string,
  change: { days: number; reason: string; now: number },
  by: Actor,
): Promise<{ before: number | null; paidUntil: number }> {
  checkExtension(change.days, change.reason);
  const reason = change.reason.trim();
  return db.transaction(async (trx) => {
    const m = await memberNamed(trx, username).first('id', 'username');
    if (!m) throw new MemberRuleError('not_found', `no member ${username}`);
    const current = await trx('subscriptions')
      .where({ member_id: m.id, kind: 'membership' })
      .whereIn('status', ['active', 'cancelled'])
      .orderBy('paid_until', 'desc')
      .modify((q) => {
        // Two extensions at once must add up, not overwrite each other (SQLite writes one at a time anyway).
        if (!isSqlite(trx)) void q.forUpdate();
      })
      .first('id', 'paid_until');
    const before = numOrNull(current?.paid_until);
    const paidUntil = Math.max(before ?? change.now, change.now) + change.days * DAY_MS;
    if (current) await trx('subscriptions').where({ id: current.id }).update({ paid_until: paidUntil, updated_at: change.now });
    else
      await trx('subscriptions').insert({
        member_id: m.id,
        kind: 'membership',
        vod_id: null,
        provider_subscription_id: null,
        status: 'active',
        paid_until: paidUntil,
        created_at: change.now,
        updated_at: change.now,
      });
    await appendAudit(trx, {
      ...by,
      action: 'member.extend',
      target: String(m.username),
      before: { paidUntil: before },
      after: { paidUntil, days: change.days, reason },
      at: change.now,
    });
    return { before, paidUntil };
  });
}

export type { AttemptView, MemberDetail, MemberFound };
