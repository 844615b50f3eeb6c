import type { Knex } from 'knex';
import type { KeyRing } from '@media-site/contracts/token';
import { numOrNull } from '../row-values';
import { adminRowOf, type AdminRow } from './accounts';
import { appendAudit } from './audit';
import { needsReseal, openSecret, sealSecret } from './secret-box';
import { totpStep } from './totp';

// Console sign-in outcomes and the lockout: N failures in a row (a wrong TOTP code, a passkey
// assertion that does not verify) lock the account for a while, whatever address they came from;
// a success clears the count. Every outcome is in the audit log.

export interface Lockout {
  failures: number;
  lockMs: number;
}

export type SignInOutcome = { ok: true; admin: AdminRow } | { ok: false; reason: 'refused' | 'locked' };

interface Attempt {
  address: string;
  now: number;
  lockout: Lockout;
  method: 'totp' | 'passkey';
}

/** A locked or disabled admin cannot sign in; neither can a name nobody has. */
function usable(row: Record<string, unknown> | undefined, now: number): SignInOutcome | undefined {
  if (!row || row.disabled_at != null) return { ok: false, reason: 'refused' };
  const lockedUntil = numOrNull(row.locked_until);
  return lockedUntil !== null && lockedUntil > now ? { ok: false, reason: 'locked' } : undefined;
}

export async function signInFailed(db: Knex, admin: { id: number; name: string }, a: Attempt): Promise<SignInOutcome> {
  return db.transaction(async (trx) => {
    const row = await trx('admins').where({ id: admin.id }).forUpdate().first('failed_signins');
    const failures = Number(row?.failed_signins ?? 0) + 1;
    const locks = failures >= a.lockout.failures;
    await trx('admins')
      .where({ id: admin.id })
      .update(locks ? { failed_signins: 0, locked_until: a.now + a.lockout.lockMs } : { failed_signins: failures });
    const entry = { actor: admin.name, address: a.address, target: admin.name, at: a.now };
    await appendAudit(trx, { ...entry, action: 'admin.signin_failed', after: { method: a.method, failures } });
    if (locks) await appendAudit(trx, { ...entry, action: 'admin.lockout', after: { until: a.now + a.lockout.lockMs } });
    return { ok: false, reason: locks ? 'locked' : 'refused' } as const;
  });
}

export async function signInSucceeded(
  db: Knex | Knex.Transaction,
  admin: AdminRow,
  a: Attempt,
  totp?: { lastStep: number; resealed?: string },
): Promise<SignInOutcome> {
  await db('admins')
    .where({ id: admin.id })
    .update({
      failed_signins: 0,
      locked_until: null,
      ...(totp === undefined ? {} : { totp_last_step: totp.lastStep }),
      ...(totp?.resealed === undefined ? {} : { totp_secret: totp.resealed }),
    });
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

/**
 * The TOTP fallback: the admin's name and a current code, each code good once. The secret is
 * opened with `keys` (ADMIN_SECRET_KEYS); a plain or old-key row is re-sealed under the first key
 * on a good sign-in.
 */
export async function totpSignIn(db: Knex, keys: KeyRing, name: string, code: string, a: Omit<Attempt, 'method'>): Promise<SignInOutcome> {
  const row = await db('admins').where({ name }).first();
  const refused = usable(row, a.now);
  if (refused) return refused;
  const admin = adminRowOf(row);
  const attempt = { ...a, method: 'totp' as const };
  const stored = String(row.totp_secret);
  const secret = openSecret(keys, stored);
  const step = totpStep(secret, code, a.now);
  const last = numOrNull(row.totp_last_step);
  if (step === undefined || (last !== null && step <= last)) return signInFailed(db, admin, attempt);
  const resealed = needsReseal(keys, stored) ? sealSecret(keys, secret) : undefined;
  return signInSucceeded(db, admin, attempt, { lastStep: step, resealed });
}

/** Before a passkey assertion is verified: the admin it names may still sign in. */
export async function passkeySignInAllowed(db: Knex, adminId: number, now: number): Promise<SignInOutcome> {
  const row = await db('admins').where({ id: adminId }).first();
  return usable(row, now) ?? { ok: true, admin: adminRowOf(row) };
}
