import { z } from 'zod';

/**
 * The console's Prices screen (GET and PUT /api/admin/prices): what new members are charged. The
 * body is only bounded here; db/src/payments/offers.ts (checkOffer) holds the rules and says which
 * field broke one. Shared as admin-queues.ts's answers are.
 */

const AMOUNT_TEXT = 'an amount like 14.99';
const DAYS_TEXT = 'a whole number of days';
/** Longer than any amount the rules allow ("999.99"), short enough to read nothing large. */
const AMOUNT_MAX = 10;

const amount = z.string(AMOUNT_TEXT).max(AMOUNT_MAX, AMOUNT_TEXT);
const days = z.number(DAYS_TEXT);

export const pricesBody = z.strictObject({
  price: amount,
  periodDays: days,
  trial: z
    .strictObject(
      { price: amount, days },
      { error: (issue) => (issue.code === 'invalid_type' ? 'a trial ({ price, days }) or null' : undefined) },
    )
    .nullable(),
});
export type PricesBody = z.infer<typeof pricesBody>;

const offer = z.strictObject({
  price: z.string(),
  periodDays: z.number().int(),
  trial: z.strictObject({ price: z.string(), days: z.number().int() }).nullable(),
});

export const pricesAnswer = z.strictObject({
  /** In force for sign-ups from now on. */
  offer,
  /** Who set it and when (unix ms); null while the configuration's defaults apply. */
  setBy: z.string().nullable(),
  setAt: z.number().nullable(),
  /** The configuration's MEMBERSHIP_PRICE and MEMBERSHIP_PERIOD_DAYS, in force until the owner sets prices. */
  defaults: z.strictObject({ price: z.string(), periodDays: z.number().int() }),
  /** Whether a membership renews (MEMBERSHIP_REBILLS above 0): how the terms are worded. */
  renews: z.boolean(),
  /** The terms as the join page states them (offerTerms). */
  terms: z.string(),
});
export type PricesAnswer = z.infer<typeof pricesAnswer>;

/** PUT /api/admin/prices/vod: the default VOD price ("9.99"), or null to clear it. */
export const vodPriceBody = z.strictObject({ price: amount.nullable() });
export type VodPriceBody = z.infer<typeof vodPriceBody>;

/** GET and PUT /api/admin/prices/vod: what a VOD ingested without its own price costs. */
export const vodPriceAnswer = z.strictObject({
  /** null: none set; a VOD's meta.json must name its price. */
  price: z.string().nullable(),
  setBy: z.string().nullable(),
  setAt: z.number().nullable(),
});
export type VodPriceAnswer = z.infer<typeof vodPriceAnswer>;
