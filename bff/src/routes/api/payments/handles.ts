import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';

// The browser gets this opaque handle at step 3 instead of the provider's backend bearer, which
// never leaves the server. Stored hashed; single use; minutes long. It names the step-1 record of
// the browser that asked for it and the one payment token it may be spent on.
const hashOf = (raw: string) => createHash('sha256').update(raw).digest('hex');

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
