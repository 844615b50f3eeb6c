import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';

// The payment chain's own records (payment_starts, payment_handles); the attempts and their
// settlement are db's (@media-site/db/payments).

const sha256 = (raw: string) => createHash('sha256').update(raw).digest('hex');

/**
 * Step 1's record of who is paying, keyed by the hash of a nonce that only the browser that ran
 * step 1 holds (an HttpOnly, SameSite=Strict cookie on /api). Steps 3 and 4 need that cookie, so a
 * payment token or handle learnt elsewhere is worth nothing in another browser.
 */
export const PAYMENT_START_COOKIE = 'pay_start';
export const START_TTL_MS = 30 * 60_000;

export const nonceHash = sha256;

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

// The browser gets this opaque handle at step 3 instead of the provider's backend bearer, which
// never leaves the server. Stored hashed; single use; minutes long. It names the step-1 record of
// the browser that asked for it and the one payment token it may be spent on.
const hashOf = sha256;

// A bound row outlives its handle by the payment token's whole life (30 h), so a token claimed
// here cannot be claimed again by another browser while the provider would still charge it.
const KEEP_CLAIM_MS = 2 * 86_400_000;

export interface HandleBinding {
  startHash: string;
  paymentToken: string;
}

export class TokenClaimedError extends Error {}

/** Issues a handle bound to `binding`; TokenClaimedError when another handle claimed that payment token. */
export async function issueHandle(db: Knex, now: number, ttlMs: number, binding: HandleBinding): Promise<string> {
  const raw = randomBytes(32).toString('base64url');
  try {
    await db('payment_handles').insert({
      handle_hash: hashOf(raw),
      expires_at: now + ttlMs,
      used_at: null,
      start_hash: binding.startHash,
      bound_token: binding.paymentToken,
    });
  } catch (err) {
    if (await db('payment_handles').where({ bound_token: binding.paymentToken }).first('handle_hash'))
      throw new TokenClaimedError('payment token already claimed');
    throw err;
  }
  await db('payment_handles')
    .where('expires_at', '<', now - KEEP_CLAIM_MS)
    .delete();
  return raw;
}

/** What a handle is bound to (undefined: no such handle, or one from before binding). */
export async function bindingOf(db: Knex, raw: string): Promise<HandleBinding | undefined> {
  const row = await db('payment_handles')
    .where({ handle_hash: hashOf(raw) })
    .first('start_hash', 'bound_token');
  if (!row?.start_hash || !row.bound_token) return undefined;
  return { startHash: String(row.start_hash), paymentToken: String(row.bound_token) };
}

export type SpendResult = 'spent' | 'spent-on-same-token' | 'invalid';

/** Spends the handle on one payment token, atomically; a repeat for that same token is told so. */
export async function spendHandle(db: Knex, raw: string, paymentToken: string, now: number): Promise<SpendResult> {
  const hash = hashOf(raw);
  const updated = await db('payment_handles')
    .where({ handle_hash: hash })
    .whereNull('used_at')
    .where('expires_at', '>', now)
    .update({ used_at: now, payment_token: paymentToken });
  if (updated === 1) return 'spent';
  const row = await db('payment_handles').where({ handle_hash: hash }).first('payment_token');
  return row?.payment_token === paymentToken ? 'spent-on-same-token' : 'invalid';
}
