import type { Knex } from 'knex';
import { isSqlite } from '@media-site/db';
import { unreleasedIds } from '@media-site/db/content';
import { memberNamed } from '@media-site/db/members';
import { visibleOnly } from '../routes/api/shared/repository';

export interface MemberRow {
  id: number;
  username: string;
  password_hash: string;
  email: string;
  revoked_at: number | null;
  /** `npm run ops -- member disable`: no sign-in, no session, always on the revocation list. */
  disabled_at: number | null;
  /** Unix ms; what the member was given before it is refused (sign out everywhere, a password change, a disable, a chargeback). */
  access_valid_from: number | null;
}

// mysql2 returns bigint columns as strings (bigNumberStrings).
const num = (v: unknown): number => Number(v);
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

function toMember(row: Record<string, unknown> | undefined): MemberRow | undefined {
  if (!row) return undefined;
  return {
    id: num(row.id),
    username: String(row.username),
    password_hash: String(row.password_hash),
    email: String(row.email),
    revoked_at: numOrNull(row.revoked_at),
    disabled_at: numOrNull(row.disabled_at),
    access_valid_from: numOrNull(row.access_valid_from),
  };
}

/** In any letter case ("Demo" is "demo"), on every backend. */
export async function memberByUsername(db: Knex, username: string): Promise<MemberRow | undefined> {
  return toMember(await memberNamed(db, username).first());
}

export async function memberById(db: Knex, id: number): Promise<MemberRow | undefined> {
  return toMember(await db('members').where({ id }).first());
}

/** The ids of the members with this e-mail address in any letter case, lowest first, at most `limit`. */
export async function memberIdsWithEmail(db: Knex, email: string, limit: number): Promise<number[]> {
  // Index-backed in any letter case (migration 012): MySQL/MariaDB's _ci collation, SQLite's NOCASE index.
  const byEmail = isSqlite(db) ? db('members').whereRaw('email = ? COLLATE NOCASE', [email]) : db('members').where('email', email);
  const rows: { id: unknown }[] = await byEmail.orderBy('id').limit(limit).select('id');
  return rows.map((r) => num(r.id));
}

/** Locks the member's row until the transaction ends (SELECT … FOR UPDATE), so changes to it queue. */
export async function lockMember(trx: Knex, id: number): Promise<void> {
  await trx('members').where({ id }).forUpdate().first('id');
}

// The members table has one writer, db's accounts module (the operator CLI's too): the bff writes through it.
export { bumpAccessValidFrom, insertMember, revokeMember, setEmail, setPasswordHash } from '@media-site/db/members';

/**
 * Members revoked since `since` (unix ms), and every disabled member: what the media service must
 * refuse despite valid signatures.
 */
export async function revokedMemberIds(db: Knex, since: number): Promise<number[]> {
  const rows: { id: unknown }[] = await db('members').where('revoked_at', '>=', since).orWhereNotNull('disabled_at').select('id');
  return rows.map((r) => num(r.id));
}

/**
 * The media service's per-member "valid from" (unix seconds): anything minted (`iat`) before it is
 * refused. The bump at T ms refuses every `iat` up to floor(T / 1000), so nothing minted in the same
 * second before the bump survives; what is minted after it carries at least this (mintSeconds).
 */
export const validFromSeconds = (ms: number | null): number => (ms === null ? 0 : Math.floor(ms / 1000) + 1);

/** The `iat` of what is minted now for the member: the clock's second, never before their valid-from. */
export const mintSeconds = (member: Pick<MemberRow, 'access_valid_from'>, now: number): number =>
  Math.max(Math.floor(now / 1000), validFromSeconds(member.access_valid_from));

/** Valid-from times set since `since` (unix ms): older ones outlast nothing a link or token could still be. */
export async function accessValidFromSince(db: Knex, since: number): Promise<Record<string, number>> {
  const rows: { id: unknown; at: unknown }[] = await db('members')
    .where('access_valid_from', '>=', since)
    .select('id', 'access_valid_from as at');
  return Object.fromEntries(rows.map((r) => [String(num(r.id)), validFromSeconds(num(r.at))]));
}

export async function membershipPaidUntil(db: Knex, memberId: number): Promise<number | null> {
  const row = await db('subscriptions')
    .where({ member_id: memberId, kind: 'membership' })
    .whereIn('status', ['active', 'cancelled'])
    .max({ until: 'paid_until' })
    .first();
  return numOrNull(row?.until);
}

/** The membership subscriptions that still rebill (`active`): the provider's id and the paid-through time of each. */
export async function rebillingMemberships(
  db: Knex,
  memberId: number,
): Promise<Array<{ id: number; providerSubscriptionId: string | null; paidUntil: number | null }>> {
  const rows: Array<Record<string, unknown>> = await db('subscriptions')
    .where({ member_id: memberId, kind: 'membership', status: 'active' })
    .orderBy('id')
    .select('id', 'provider_subscription_id', 'paid_until');
  return rows.map((r) => ({
    id: Number(r.id),
    providerSubscriptionId: r.provider_subscription_id === null ? null : String(r.provider_subscription_id),
    paidUntil: numOrNull(r.paid_until),
  }));
}

/** Rebilling is on while a membership subscription is still `active` (a cancellation moves it to `cancelled`). */
export async function membershipRenews(db: Knex, memberId: number): Promise<boolean> {
  return (await db('subscriptions').where({ member_id: memberId, kind: 'membership', status: 'active' }).first('id')) !== undefined;
}

export interface BoughtVodRow {
  path: string;
  updatename: string;
  prename: string;
  format: number;
  datetoupload: string;
  takenDown: boolean;
  /** Its encode's manifest (the renditions), null until encoded. */
  manifest: string | null;
}

/** The member's bought VODs by folder, taken-down ones too (flagged), those scheduled for after `now` left out. */
export async function boughtVodRows(db: Knex, memberId: number, now: number): Promise<BoughtVodRow[]> {
  const rows: Record<string, unknown>[] = await db('subscriptions as s')
    .join('vods as v', 'v.id', 's.vod_id')
    .leftJoin('takedowns as t', (j) => j.on('t.content_id', '=', 'v.id').andOn('t.content_type', '=', db.raw('?', ['vod'])))
    .leftJoin('media_jobs as m', (j) => j.on('m.path', '=', 'v.path').andOn('m.content_type', '=', db.raw('?', ['vod'])))
    .where({ 's.member_id': memberId, 's.kind': 'vod', 's.status': 'active' })
    .whereNotIn('v.id', unreleasedIds(db, 'vods', now))
    .select('v.path', 'v.updatename', 'v.prename', 'v.format', 'v.datetoupload', 't.id as takedown', 'm.manifest')
    .orderBy('v.path');
  return rows.map((r) => ({
    path: String(r.path),
    updatename: String(r.updatename),
    prename: String(r.prename),
    format: Number(r.format),
    datetoupload: String(r.datetoupload),
    takenDown: r.takedown !== null && r.takedown !== undefined,
    manifest: (r.manifest as string | null | undefined) ?? null,
  }));
}

export async function boughtVodPaths(db: Knex, memberId: number): Promise<string[]> {
  const rows: { path: string }[] = await db('subscriptions as s')
    .join('vods as v', 'v.id', 's.vod_id')
    .where({ 's.member_id': memberId, 's.kind': 'vod', 's.status': 'active' })
    .select('v.path')
    .orderBy('v.path');
  return rows.map((r) => r.path);
}

/** Of `paths` (bought VODs), those the catalog shows now, in the same order; no query for none. */
export async function shownVodPaths(db: Knex, paths: readonly string[]): Promise<string[]> {
  if (paths.length === 0) return [];
  const shown = new Set<string>(await visibleOnly(db('vods').whereIn('path', paths), db, 'vods').pluck('path'));
  return paths.filter((p) => shown.has(p));
}

/** A VOD that can be bought: the catalog's visibility rule, so a taken-down one is unknown here too. */
export async function vodByPath(db: Knex, path: string): Promise<{ id: number; path: string; price: string } | undefined> {
  const row = await visibleOnly(db('vods').where({ path }), db, 'vods').first('id', 'path', 'price');
  return row ? { id: num(row.id), path: String(row.path), price: Number(row.price).toFixed(2) } : undefined;
}
