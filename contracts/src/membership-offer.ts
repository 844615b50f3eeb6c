// What a membership costs and how the site says it: the console's Prices screen sets it, the join
// page and the home pitch state it, the bff charges it. No zod here: the SPA imports it
// (tools/boundaries/graph.mjs, BROWSER_CONTRACTS).

export interface MembershipTrial {
  /** A decimal like "1.95". */
  price: string;
  days: number;
}

export interface MembershipOffer {
  /** What every period costs after the trial (or from the start): a decimal like "14.99". */
  price: string;
  periodDays: number;
  /** A first period at its own price, or none. */
  trial: MembershipTrial | null;
}

/** Step 4's 409 when the terms changed after the page showed them (nothing was charged). */
export const OFFER_CHANGED = 'the membership terms changed while you were paying; nothing was charged: read the new terms and pay again';

/** The bounds the console and the bff check (the provider's own limits per currency still apply). */
export const OFFER_PRICE_MIN = 0.01;
export const OFFER_PRICE_MAX = 999.99;
export const OFFER_PERIOD_DAYS_MAX = 365;
export const OFFER_TRIAL_DAYS_MAX = 90;

const money = (price: string) => `$${Number(price).toFixed(2)}`;
const days = (n: number) => (n === 1 ? '1 day' : `${n} days`);

/** The join page's heading (spec wording without a trial): "Join: $14.99 for 30 days". */
export function joinHeading(offer: MembershipOffer): string {
  return offer.trial
    ? `Join: ${money(offer.trial.price)} for ${days(offer.trial.days)}`
    : `Join: ${money(offer.price)} for ${days(offer.periodDays)}`;
}

/**
 * The terms a member is charged on, in one sentence, stated before payment (the card brands' rules
 * for trials want the recurring amount and when it is first charged).
 */
export function offerTerms(offer: MembershipOffer, renews = true): string {
  const recurring = `${money(offer.price)} every ${days(offer.periodDays)}`;
  if (offer.trial)
    return `${money(offer.trial.price)} today for a ${offer.trial.days}-day trial, then ${recurring}${renews ? ' until you cancel' : ''}, first charged when the trial ends.`;
  return renews
    ? `${money(offer.price)} today, then ${recurring} until you cancel.`
    : `${money(offer.price)} for ${days(offer.periodDays)}.`;
}
