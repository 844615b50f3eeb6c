import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';

/**
 * Step 1's record of who is paying, keyed by the hash of a nonce that only the browser that ran
 * step 1 holds (an HttpOnly, SameSite=Strict cookie on /api). Steps 3 and 4 need that cookie, so a
 * payment token or handle learnt elsewhere is worth nothing in another browser.
 */
export const PAYMENT_START_COOKIE = 'pay_start';
export const START_TTL_MS = 30 * 60_000;

export const nonceHash = (raw: string) => createHash('sha256').update(raw).digest('hex');

export type PaymentStart = { username: string; memberId: null; vodId: null } | { username: null; memberId: number; vodId: number };

export interface StartRow {
  nonce_hash: string;
  username: string | null;
  member_id: number | null;
  vod_id: number | null;
}

/** Records step 1; returns the raw nonce for the cookie (only its hash is stored). */
export async function recordStart(db: Knex, start: PaymentStart, now: number): Promise<string> {
  const raw = randomBytes(32).toString('base64url');
  await db('payment_starts').insert({
    nonce_hash: nonceHash(raw),
    username: start.username,
    member_id: start.memberId,
    vod_id: start.vodId,
    expires_at: now + START_TTL_MS,
  });
  await db('payment_starts').where('expires_at', '<', now).delete();
  return raw;
}

/** The live record behind a cookie's nonce, if any. */
export async function startByHash(db: Knex, hash: string, now: number): Promise<StartRow | undefined> {
  const row: Record<string, unknown> | undefined = await db('payment_starts')
    .where({ nonce_hash: hash })
    .where('expires_at', '>', now)
    .first();
  if (!row) return undefined;
  const n = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return { nonce_hash: hash, username: (row.username as string | null) ?? null, member_id: n(row.member_id), vod_id: n(row.vod_id) };
}
