import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { BadRequestError } from '../../../errors';

// The links of password resets and e-mail changes: 32 random bytes, base64url, of which only the
// SHA-256 is stored (password_resets, email_changes): a leaked row cannot be opened as a link.

export const LINK_TOKEN = /^[\w-]{43}$/;

export const linkTokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

export function newLinkToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: linkTokenHash(token) };
}

export type LinkTable = 'password_resets' | 'email_changes';

/** The link's row while it can still be opened: not used, not expired. */
export function liveLink(db: Knex, table: LinkTable, hash: string, now: number) {
  return db(table).where({ token_hash: hash }).whereNull('used_at').where('expires_at', '>', now);
}

/** Spends the link inside the confirming transaction. Conditional: of two tabs confirming the same link, one wins; the other is `refused`. */
export async function spendLink(trx: Knex, table: LinkTable, hash: string, now: number, refused: string): Promise<void> {
  const spent = await liveLink(trx, table, hash, now).update({ used_at: now });
  if (spent !== 1) throw new BadRequestError(refused);
}

/** How many links of the member can still be opened. */
export async function liveLinkCount(db: Knex, table: LinkTable, memberId: number, now: number): Promise<number> {
  const row = await db(table).where({ member_id: memberId }).whereNull('used_at').where('expires_at', '>', now).count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

/** Spends every unused link of the member: one was used, or what they guarded (the password, the address) changed. */
export async function spendAllLinks(trx: Knex, table: LinkTable, memberId: number, now: number): Promise<void> {
  await trx(table).where({ member_id: memberId }).whereNull('used_at').update({ used_at: now });
}
