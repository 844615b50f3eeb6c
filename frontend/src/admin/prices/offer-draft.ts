import {
  OFFER_PERIOD_DAYS_MAX,
  OFFER_PRICE_MAX,
  OFFER_PRICE_MIN,
  OFFER_TRIAL_DAYS_MAX,
  type MembershipOffer,
} from '@media-site/contracts/membership-offer';

/** The Prices form as typed: strings, and the trial's fields kept while "Offer a trial" is off. */
export interface OfferDraft {
  price: string;
  periodDays: string;
  trial: boolean;
  trialPrice: string;
  trialDays: string;
}

export function draftOf(offer: MembershipOffer): OfferDraft {
  return {
    price: offer.price,
    periodDays: String(offer.periodDays),
    trial: offer.trial !== null,
    trialPrice: offer.trial?.price ?? '',
    trialDays: offer.trial ? String(offer.trial.days) : '',
  };
}

/** What Save sends: the fields as typed (the bff checks them and names the first bad one). */
export function bodyOf(draft: OfferDraft): MembershipOffer {
  const days = (value: string) => (value.trim() === '' ? Number.NaN : Number(value));
  return {
    price: draft.price.trim(),
    periodDays: days(draft.periodDays),
    trial: draft.trial ? { price: draft.trialPrice.trim(), days: days(draft.trialDays) } : null,
  };
}

const AMOUNT = /^\d{1,3}\.\d{2}$/;
const amountOk = (value: string) => AMOUNT.test(value) && Number(value) >= OFFER_PRICE_MIN && Number(value) <= OFFER_PRICE_MAX;
const daysOk = (value: number, max: number) => Number.isInteger(value) && value >= 1 && value <= max;

/**
 * The offer the draft would set, or null while a field is not one the bff takes (its rules,
 * db/src/payments/offers.ts): only a valid draft gets a preview of its terms.
 */
export function validOffer(draft: OfferDraft): MembershipOffer | null {
  const offer = bodyOf(draft);
  if (!amountOk(offer.price) || !daysOk(offer.periodDays, OFFER_PERIOD_DAYS_MAX)) return null;
  if (!offer.trial) return offer;
  const { price, days } = offer.trial;
  if (!amountOk(price) || !daysOk(days, OFFER_TRIAL_DAYS_MAX) || Number(price) >= Number(offer.price)) return null;
  return offer;
}
