import type { Knex } from 'knex';

// The links of password resets and e-mail changes (password_resets, email_changes): a row per link,
// keyed by the SHA-256 of its token (tokens.ts), spent once.

export type LinkTable = 'password_resets' | 'email_changes';

/** The link's row while it can still be opened: not used, not expired. */
function liveLink(db: Knex, table: LinkTable, hash: string, now: number) {
  return db(table).where({ token_hash: hash }).whereNull('used_at').where('expires_at', '>', now);
}

/** The member a live reset link belongs to. */
export async function liveResetMemberId(db: Knex, hash: string, now: number): Promise<number | undefined> {
  const row = await liveLink(db, 'password_resets', hash, now).first('member_id');
  return row ? Number(row.member_id) : undefined;
}

/** The member and new address of a live e-mail change link. */
export async function liveEmailChange(db: Knex, hash: string, now: number): Promise<{ memberId: number; newEmail: string } | undefined> {
  const row = await liveLink(db, 'email_changes', hash, now).first('member_id', 'new_email');
  return row ? { memberId: Number(row.member_id), newEmail: String(row.new_email) } : undefined;
}

/** Spends the link inside the confirming transaction. Conditional: of two tabs confirming the same link, one wins (true). */
export async function spendLink(trx: Knex, table: LinkTable, hash: string, now: number): Promise<boolean> {
  return (await liveLink(trx, table, hash, now).update({ used_at: now })) === 1;
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

export async function insertReset(trx: Knex, r: { hash: string; memberId: number; now: number; ttlMs: number }): Promise<void> {
  await trx('password_resets').insert({
    token_hash: r.hash,
    member_id: r.memberId,
    created_at: r.now,
    expires_at: r.now + r.ttlMs,
    used_at: null,
  });
}

export async function insertEmailChange(
  trx: Knex,
  c: { hash: string; memberId: number; newEmail: string; now: number; ttlMs: number },
): Promise<void> {
  await trx('email_changes').insert({
    token_hash: c.hash,
    member_id: c.memberId,
    new_email: c.newEmail,
    created_at: c.now,
    expires_at: c.now + c.ttlMs,
    used_at: null,
  });
}
