import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';

// The browser gets this opaque handle at step 3 instead of the provider's backend bearer, which
// never leaves the server. Stored hashed; single use; minutes long.
const hashOf = (raw: string) => createHash('sha256').update(raw).digest('hex');

export async function issueHandle(db: Knex, now: number, ttlMs: number): Promise<string> {
  const raw = randomBytes(32).toString('base64url');
  await db('payment_handles').insert({ handle_hash: hashOf(raw), expires_at: now + ttlMs, used_at: null });
  await db('payment_handles').where('expires_at', '<', now - 86_400_000).delete();
  return raw;
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
