import type { Knex } from 'knex';
import type { Actor } from '../admin/accounts';
import { appendAudit } from '../admin/audit';
import { amountOf } from './offers';

// The default VOD price (migration 033): what a VOD ingested without a price of its own costs. The
// owner sets it on the console's Prices screen; the ingest reads it for a new VOD whose meta.json
// names no price (an existing VOD keeps its price). Unset: such a folder is refused, as before.

export interface VodPriceInForce {
  /** "9.99", or null: none set (every VOD needs its own price). */
  price: string | null;
  /** Who set it and when; null while it was never set. */
  setBy: string | null;
  setAt: number | null;
}

export async function currentVodPrice(db: Knex | Knex.Transaction): Promise<VodPriceInForce> {
  const row = await db('vod_price_defaults').orderBy('id', 'desc').first();
  if (!row) return { price: null, setBy: null, setAt: null };
  return { price: row.price == null ? null : String(row.price), setBy: String(row.set_by), setAt: Number(row.set_at) };
}

/** Sets (or, with null, clears) the default VOD price; audited (`prices.vod`, before and after) in the same transaction. */
export async function setVodPrice(knex: Knex, price: string | null, audit: Actor & { now: number }): Promise<VodPriceInForce> {
  const checked = price === null ? null : amountOf('price', price);
  return knex.transaction(async (trx) => {
    const before = await currentVodPrice(trx);
    const setBy = audit.actor.slice(0, 80);
    await trx('vod_price_defaults').insert({ price: checked, set_by: setBy, set_at: audit.now });
    await appendAudit(trx, {
      actor: audit.actor,
      address: audit.address,
      action: 'prices.vod',
      target: 'vod',
      before: { price: before.price },
      after: { price: checked },
      at: audit.now,
    });
    return { price: checked, setBy, setAt: audit.now };
  });
}
