import type { Knex } from 'knex';
import { appendAudit } from './audit';
import type { Actor } from './accounts';

// WebAuthn state: the challenges the bff issued (each good once, for CHALLENGE_MS) and the
// admins' registered credentials. The WebAuthn checks themselves are the bff's (@simplewebauthn/server).

export const CHALLENGE_MS = 5 * 60_000;

export interface PasskeyRow {
  id: number;
  adminId: number;
  credentialId: string;
  publicKey: Uint8Array<ArrayBuffer>;
  counter: number;
  transports: string[];
}

export async function saveChallenge(
  db: Knex,
  c: { challenge: string; purpose: 'signin' | 'register'; adminId?: number; now: number },
): Promise<void> {
  await db('admin_challenges').where('expires_at', '<', c.now).delete();
  await db('admin_challenges').insert({
    challenge: c.challenge,
    purpose: c.purpose,
    admin_id: c.adminId ?? null,
    expires_at: c.now + CHALLENGE_MS,
  });
}

/** Takes (deletes) a live challenge: true when it was issued for this purpose (and admin). */
export async function takeChallenge(
  db: Knex,
  c: { challenge: string; purpose: 'signin' | 'register'; adminId?: number; now: number },
): Promise<boolean> {
  if (c.challenge.length > 64) return false;
  const deleted = await db('admin_challenges')
    .where({ challenge: c.challenge, purpose: c.purpose, admin_id: c.adminId ?? null })
    .where('expires_at', '>', c.now)
    .delete();
  return deleted === 1;
}

function passkeyOf(r: Record<string, unknown>): PasskeyRow {
  return {
    id: Number(r.id),
    adminId: Number(r.admin_id),
    credentialId: String(r.credential_id),
    publicKey: new Uint8Array(Buffer.from(String(r.public_key), 'base64url')),
    counter: Number(r.counter),
    transports: String(r.transports).split(',').filter(Boolean),
  };
}

export async function passkeyByCredentialId(db: Knex, credentialId: string): Promise<PasskeyRow | undefined> {
  if (credentialId.length > 255) return undefined;
  const row = await db('admin_passkeys').where({ credential_id: credentialId }).first();
  return row ? passkeyOf(row) : undefined;
}

export async function passkeysOf(db: Knex, adminId: number): Promise<PasskeyRow[]> {
  const rows: Record<string, unknown>[] = await db('admin_passkeys').where({ admin_id: adminId }).select('*');
  return rows.map(passkeyOf);
}

export async function addPasskey(
  db: Knex,
  p: {
    admin: { id: number; name: string };
    credentialId: string;
    publicKey: Uint8Array;
    counter: number;
    transports: string[];
    now: number;
  } & Actor,
): Promise<void> {
  await db.transaction(async (trx) => {
    await trx('admin_passkeys').insert({
      admin_id: p.admin.id,
      credential_id: p.credentialId,
      public_key: Buffer.from(p.publicKey).toString('base64url'),
      counter: p.counter,
      transports: p.transports.join(',').slice(0, 100),
      created_at: p.now,
    });
    await appendAudit(trx, {
      actor: p.actor,
      address: p.address,
      action: 'admin.passkey_add',
      target: p.admin.name,
      after: { credentialId: p.credentialId },
      at: p.now,
    });
  });
}

export async function passkeyUsed(db: Knex, id: number, counter: number, now: number): Promise<void> {
  await db('admin_passkeys').where({ id }).update({ counter, last_used_at: now });
}
