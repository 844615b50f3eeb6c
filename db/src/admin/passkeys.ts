import type { Knex } from 'knex';
import { isoTime } from '@media-site/contracts/iso-time';
import { enqueueMail, type MailSite } from '../mail';
import { passkeyAddedMail } from '../mail/templates';
import { numOrNull } from '../row-values';
import { appendAudit } from './audit';
import type { Actor } from './accounts';
import { AdminRuleError } from './errors';

// WebAuthn state: the challenges the bff issued (each good once, for CHALLENGE_MS) and the
// admins' registered credentials. The WebAuthn checks themselves are the bff's (@simplewebauthn/server).

export const CHALLENGE_MS = 5 * 60_000;

/** What a challenge was issued for: a sign-in, a new passkey, or a signed-in admin confirming it is them. */
export type ChallengePurpose = 'signin' | 'register' | 'confirm';

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
  c: { challenge: string; purpose: ChallengePurpose; adminId?: number; now: number },
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
  c: { challenge: string; purpose: ChallengePurpose; adminId?: number; now: number },
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

/** What an admin (or an owner, or the CLI) sees of a passkey: never its key. */
export interface PasskeySummary {
  id: number;
  name: string;
  transports: string[];
  createdAt: number;
  lastUsedAt: number | null;
}

export const PASSKEY_NAME_MAX = 64;

/** A passkey's name: printable, 1-64 characters once trimmed (the console and the CLI check it). */
export function checkPasskeyName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > PASSKEY_NAME_MAX || /[\p{Cc}\p{Cf}]/u.test(trimmed))
    throw new AdminRuleError('bad_input', `a passkey name is 1-${PASSKEY_NAME_MAX} printable characters`);
  return trimmed;
}

export async function passkeyList(db: Knex, adminId: number): Promise<PasskeySummary[]> {
  const rows: Record<string, unknown>[] = await db('admin_passkeys')
    .where({ admin_id: adminId })
    .orderBy('id')
    .select('id', 'name', 'transports', 'created_at', 'last_used_at');
  return rows.map((r) => ({
    id: Number(r.id),
    name: String(r.name) || `Passkey ${Number(r.id)}`,
    transports: String(r.transports).split(',').filter(Boolean),
    createdAt: Number(r.created_at),
    lastUsedAt: numOrNull(r.last_used_at),
  }));
}

/**
 * Registers a passkey (the WebAuthn checks are the bff's) and, when the admin has an e-mail
 * address, tells them in the same transaction (the mail outbox): a passkey added from a stolen
 * session does not go unnoticed.
 */
export async function addPasskey(
  db: Knex,
  p: {
    admin: { id: number; name: string };
    name: string;
    credentialId: string;
    publicKey: Uint8Array;
    counter: number;
    transports: string[];
    now: number;
    site: MailSite;
  } & Actor,
): Promise<PasskeySummary> {
  const name = checkPasskeyName(p.name);
  return db.transaction(async (trx) => {
    const [inserted] = await trx('admin_passkeys').insert({
      admin_id: p.admin.id,
      name,
      credential_id: p.credentialId,
      public_key: Buffer.from(p.publicKey).toString('base64url'),
      counter: p.counter,
      transports: p.transports.join(',').slice(0, 100),
      created_at: p.now,
    });
    const id = Number(inserted);
    await appendAudit(trx, {
      actor: p.actor,
      address: p.address,
      action: 'admin.passkey_add',
      target: p.admin.name,
      after: { id, name, credentialId: p.credentialId },
      at: p.now,
    });
    const admin = await trx('admins').where({ id: p.admin.id }).first('email');
    if (admin?.email)
      await enqueueMail(
        trx,
        {
          key: `admin-passkey:${id}`,
          to: String(admin.email),
          template: 'admin-passkey-added',
          ...passkeyAddedMail(p.site, {
            admin: p.admin.name,
            passkey: name,
            address: p.address ?? '',
            at: String(isoTime(p.now, '', 's')),
          }),
        },
        p.now,
      );
    return { id, name, transports: p.transports, createdAt: p.now, lastUsedAt: null };
  });
}

export async function renamePasskey(db: Knex, p: { admin: { id: number; name: string }; id: number; name: string; now: number } & Actor) {
  const name = checkPasskeyName(p.name);
  await db.transaction(async (trx) => {
    const row = await trx('admin_passkeys').where({ id: p.id, admin_id: p.admin.id }).forUpdate().first('name');
    if (!row) throw new AdminRuleError('not_found', `no passkey ${p.id} for ${p.admin.name}`);
    await trx('admin_passkeys').where({ id: p.id }).update({ name });
    await appendAudit(trx, {
      actor: p.actor,
      address: p.address,
      action: 'admin.passkey_rename',
      target: p.admin.name,
      before: { id: p.id, name: row.name },
      after: { id: p.id, name },
      at: p.now,
    });
  });
}

/** Deletes the passkeys in `trx` and audits it: one (`id`) or all the admin has. The number removed. */
export async function deletePasskeys(
  trx: Knex.Transaction,
  p: { admin: { id: number; name: string }; id?: number; now: number; why: string } & Actor,
): Promise<number> {
  const query = trx('admin_passkeys').where({ admin_id: p.admin.id });
  if (p.id !== undefined) query.where({ id: p.id });
  const names: { id: unknown; name: unknown }[] = await query.clone().select('id', 'name');
  if (names.length === 0) return 0;
  await query.delete();
  await appendAudit(trx, {
    actor: p.actor,
    address: p.address,
    action: 'admin.passkey_revoke',
    target: p.admin.name,
    before: { passkeys: names.map((n) => ({ id: Number(n.id), name: String(n.name) })) },
    after: { why: p.why },
    at: p.now,
  });
  return names.length;
}

/** Revokes one passkey of an admin (`id`), or every one; 404 when there is none to revoke. */
export async function revokePasskeys(db: Knex, p: { adminName: string; id?: number; now: number } & Actor): Promise<number> {
  return db.transaction(async (trx) => {
    const admin = await trx('admins').where({ name: p.adminName }).forUpdate().first('id', 'name');
    if (!admin) throw new AdminRuleError('not_found', `no admin ${p.adminName}`);
    const revoked = await deletePasskeys(trx, { ...p, admin: { id: Number(admin.id), name: String(admin.name) }, why: 'revoked' });
    if (revoked === 0)
      throw new AdminRuleError('not_found', p.id === undefined ? `${p.adminName} has no passkey` : `no passkey ${p.id} for ${p.adminName}`);
    return revoked;
  });
}

export async function passkeyUsed(db: Knex, id: number, counter: number, now: number): Promise<void> {
  await db('admin_passkeys').where({ id }).update({ counter, last_used_at: now });
}
