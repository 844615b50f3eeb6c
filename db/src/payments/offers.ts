import type { Knex } from 'knex';
import {
  OFFER_PERIOD_DAYS_MAX,
  OFFER_PRICE_MAX,
  OFFER_PRICE_MIN,
  OFFER_TRIAL_DAYS_MAX,
  type MembershipOffer,
} from '@media-site/contracts/membership-offer';
import type { Actor } from '../admin/accounts';
import { appendAudit } from '../admin/audit';
import { RuleError } from '../rule-error';

// The membership's price, period and trial as the owner set them in the console (migration 031):
// the newest row is in force for every sign-up that starts after it; none yet, the bff's
// configuration. The server alone decides what is charged: the browser is told, never asked.

const bad = (message: string) => new RuleError('bad_input', message);
const AMOUNT = /^\d{1,3}\.\d{2}$/;

/** An amount as the offers take it ("14.99", within the offer bounds), normalised; bad_input naming `name` otherwise. */
export function amountOf(name: string, value: string): string {
  if (value.length > 10 || !AMOUNT.test(value)) throw bad(`${name}: an amount like 14.99`);
  const n = Number(value);
  if (n < OFFER_PRICE_MIN || n > OFFER_PRICE_MAX) throw bad(`${name}: from ${OFFER_PRICE_MIN.toFixed(2)} to ${OFFER_PRICE_MAX.toFixed(2)}`);
  return n.toFixed(2);
}

function daysOf(name: string, value: number, max: number): number {
  if (!Number.isInteger(value) || value < 1 || value > max) throw bad(`${name}: a whole number of days from 1 to ${max}`);
  return value;
}

/** The offer checked (bad_input naming the first bad field): amounts like 14.99, whole days, a trial cheaper than a period. */
export function checkOffer(input: MembershipOffer): MembershipOffer {
  const price = amountOf('price', input.price);
  const periodDays = daysOf('periodDays', input.periodDays, OFFER_PERIOD_DAYS_MAX);
  if (!input.trial) return { price, periodDays, trial: null };
  const trial = { price: amountOf('trial.price', input.trial.price), days: daysOf('trial.days', input.trial.days, OFFER_TRIAL_DAYS_MAX) };
  if (Number(trial.price) >= Number(price)) throw bad('trial.price: a trial must cost less than a full period');
  return { price, periodDays, trial };
}

export interface OfferInForce extends MembershipOffer {
  /** The row in force (0: the configuration's defaults): the join page sends back the one it showed. */
  id: number;
  /** Who set it and when; null while the configuration's defaults apply. */
  setBy: string | null;
  setAt: number | null;
}

/** The offer new sign-ups get: the newest row, or `fallback` (the configuration) when the owner never set one. */
export async function currentOffer(db: Knex, fallback: { price: string; periodDays: number }): Promise<OfferInForce> {
  const row = await db('membership_offers').orderBy('id', 'desc').first();
  if (!row) return { id: 0, price: fallback.price, periodDays: fallback.periodDays, trial: null, setBy: null, setAt: null };
  return {
    id: Number(row.id),
    price: String(row.price),
    periodDays: Number(row.period_days),
    trial: row.trial_price == null ? null : { price: String(row.trial_price), days: Number(row.trial_days) },
    setBy: String(row.set_by),
    setAt: Number(row.set_at),
  };
}

/** Sets the offer for sign-ups from now on; audited (`prices.set`, before and after) in the same transaction. */
export async function setOffer(
  knex: Knex,
  input: MembershipOffer,
  fallback: { price: string; periodDays: number },
  audit: Actor & { now: number },
): Promise<OfferInForce> {
  const offer = checkOffer(input);
  return knex.transaction(async (trx) => {
    const before = await currentOffer(trx, fallback);
    const [id] = await trx('membership_offers').insert({
      price: offer.price,
      period_days: offer.periodDays,
      trial_price: offer.trial?.price ?? null,
      trial_days: offer.trial?.days ?? null,
      set_by: audit.actor.slice(0, 80),
      set_at: audit.now,
    });
    const shown = (o: MembershipOffer) => ({ price: o.price, periodDays: o.periodDays, trial: o.trial });
    await appendAudit(trx, {
      actor: audit.actor,
      address: audit.address,
      action: 'prices.set',
      target: 'membership',
      before: shown(before),
      after: shown(offer),
      at: audit.now,
    });
    return { ...offer, id: Number(id), setBy: audit.actor.slice(0, 80), setAt: audit.now };
  });
}

/** The provider's four numbers for a sign-up on `offer`: the first period (the trial's, if any) and what follows. */
export function chargeTerms(offer: MembershipOffer): {
  initialPrice: string;
  initialPeriod: number;
  recurringPrice: string;
  recurringPeriod: number;
} {
  return {
    initialPrice: offer.trial?.price ?? offer.price,
    initialPeriod: offer.trial?.days ?? offer.periodDays,
    recurringPrice: offer.price,
    recurringPeriod: offer.periodDays,
  };
}
