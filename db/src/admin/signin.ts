import type { Knex } from 'knex';
import type { KeyRing } from '@media-site/contracts/token';
import { numOrNull } from '../row-values';
import { adminRowOf, type AdminRow } from './accounts';
import { appendAudit } from './audit';
import { needsReseal, openSecret, sealSecret } from './secret-box';
import { newTotp, totpStep } from './totp';

// Console sign-in outcomes. Nothing here locks an account: failed codes are budgeted per address
// and per browser by the bff's limiter (bff/src/routes/api/admin/signin-limits.ts), so nobody who
// knows an admin's name can keep that admin out, and a passkey is never refused because of codes.
// Every outcome is in the audit log, a name nobody has included, and a known and an unknown name
// cost the same work (no timing tells which names exist).

export type SignInOutcome = { ok: true; admin: AdminRow } | { ok: false; reason: 'refused' };

export interface Attempt {
  address: string;
  now: number;
  method: 'totp' | 'passkey';
}

const REFUSED = { ok: false, reason: 'refused' } as const;

/** A failed sign-in, audited under the name it gave (an unknown name too: `known: false`). */
export async function signInFailed(db: Knex, name: string, a: Attempt, known = true): Promise<SignInOutcome> {
  await appendAudit(db, {
    actor: name,
    address: a.address,
    action: 'admin.signin_failed',
    target: name,
    after: known ? { method: a.method } : { method: a.method, known: false },
    at: a.now,
  });
  return REFUSED;
}

export async function signInSucceeded(db: Knex | Knex.Transaction, admin: AdminRow, a: Attempt): Promise<SignInOutcome> {
  await appendAudit(db, {
    actor: admin.name,
    address: a.address,
    action: 'admin.signin',
    target: admin.name,
    after: { method: a.method },
    at: a.now,
  });
  return { ok: true, admin };
}

/** A sealed secret per key ring that opens like a real one: an unknown name pays the same decryption. */
const decoys = new WeakMap<KeyRing, string>();
function decoySecret(keys: KeyRing): string {
  let sealed = decoys.get(keys);
  if (!sealed) {
    sealed = sealSecret(keys, newTotp('decoy', 'decoy').secret);
    decoys.set(keys, sealed);
  }
  return sealed;
}

/**
 * Checks `code` against the admin's secret and spends its time step: each code is good once, and
 * two requests racing with the same code cannot both pass (the step is written only over an older
 * one). A plain or old-key secret is re-sealed under the first key on the way.
 */
async function spendTotpCode(db: Knex, keys: KeyRing, row: Record<string, unknown>, code: string, now: number): Promise<boolean> {
  const stored = String(row.totp_secret);
  const secret = openSecret(keys, stored);
  const step = totpStep(secret, code, now);
  const last = numOrNull(row.totp_last_step);
  if (step === undefined || (last !== null && step <= last)) return false;
  const resealed = needsReseal(keys, stored) ? { totp_secret: sealSecret(keys, secret) } : {};
  const spent = await db('admins')
    .where({ id: Number(row.id) })
    .andWhere((q) => void q.whereNull('totp_last_step').orWhere('totp_last_step', '<', step))
    .update({ totp_last_step: step, ...resealed });
  return spent === 1;
}

/**
 * The TOTP fallback: the admin's name and a current code, each code good once. The secret is
 * opened with `keys` (ADMIN_SECRET_KEYS). A disabled admin and a name nobody has are refused
 * after the same work as a wrong code.
 */
export async function totpSignIn(db: Knex, keys: KeyRing, name: string, code: string, a: Omit<Attempt, 'method'>): Promise<SignInOutcome> {
  const attempt = { ...a, method: 'totp' as const };
  const row = await db('admins').where({ name }).first();
  if (!row || row.disabled_at != null) {
    totpStep(openSecret(keys, decoySecret(keys)), code, a.now);
    return signInFailed(db, name, attempt, false);
  }
  if (!(await spendTotpCode(db, keys, row, code, a.now))) return signInFailed(db, name, attempt);
  return signInSucceeded(db, adminRowOf(row), attempt);
}

/** A signed-in admin confirms it is them with a fresh code (the same rules as sign-in: each code once). */
export async function confirmTotp(db: Knex, keys: KeyRing, adminId: number, code: string, now: number): Promise<boolean> {
  const row = await db('admins').where({ id: adminId }).whereNull('disabled_at').first();
  return row ? spendTotpCode(db, keys, row, code, now) : false;
}

/** Before a passkey assertion is verified: the admin it names is still enabled. Failed codes never matter here. */
export async function passkeySignInAllowed(db: Knex, adminId: number): Promise<SignInOutcome> {
  const row = await db('admins').where({ id: adminId }).first();
  return !row || row.disabled_at != null ? REFUSED : { ok: true, admin: adminRowOf(row) };
}
