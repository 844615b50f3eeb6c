import { Counter, Registry } from 'prom-client';
import type { SettledFacts } from '@media-site/db/payments';

/**
 * What the money does, counted where only the payments code knows it: settlements (the direct
 * answer, a webhook or a reconciliation, each attempt once) and the provider's lifecycle webhooks
 * (each stored event once; a replay is not counted). No label names a member, an item or an amount:
 * kinds, outcomes, event names, decline codes and currencies are all closed sets (docs/operate.md,
 * "Monitoring"). Module-level so any code can count without a Koa ctx; merged into every bff scrape.
 */
export const paymentRegistry = new Registry();

export const paymentOutcomes = new Counter({
  name: 'bff_payment_outcomes_total',
  help: 'Settled payment attempts by outcome (approved, declined, failed, unknown), each attempt once',
  labelNames: ['step', 'outcome'] as const,
  registers: [paymentRegistry],
});

const sales = new Counter({
  name: 'bff_sales_total',
  help: 'Approved first charges by kind: membership (a sign-up) or vod (a purchase)',
  labelNames: ['kind'] as const,
  registers: [paymentRegistry],
});

const revenue = new Counter({
  name: 'bff_revenue_total',
  help: 'Money charged, in units of the currency: first charges and renewals (refunds and chargebacks are counted as events, not subtracted)',
  labelNames: ['currency', 'kind'] as const,
  registers: [paymentRegistry],
});

const declines = new Counter({
  name: 'bff_payment_declines_total',
  help: "Declined charges by the processor's decline code (other: no code given)",
  labelNames: ['code'] as const,
  registers: [paymentRegistry],
});

const events = new Counter({
  name: 'bff_subscription_events_total',
  help: "The provider's lifecycle webhooks by event (renewal, renewal_failed, cancellation, expiration, chargeback, refund, return, void, other)",
  labelNames: ['event'] as const,
  registers: [paymentRegistry],
});

// Present from the first scrape, so a rate over them is 0 rather than absent.
for (const outcome of ['approved', 'declined', 'failed', 'unknown']) paymentOutcomes.inc({ step: 'settle', outcome }, 0);
for (const kind of ['membership', 'vod']) sales.inc({ kind }, 0);
const EVENTS: Record<string, string> = {
  RenewalSuccess: 'renewal',
  RenewalFailure: 'renewal_failed',
  Cancellation: 'cancellation',
  Expiration: 'expiration',
  Chargeback: 'chargeback',
  Refund: 'refund',
  Return: 'return',
  Void: 'void',
};
for (const event of [...Object.values(EVENTS), 'other']) events.inc({ event }, 0);
declines.inc({ code: 'other' }, 0);

// ISO 4217 numeric codes the provider bills in most; any other stays its number (it comes from our configuration).
const CURRENCIES: Record<number, string> = { 36: 'AUD', 124: 'CAD', 392: 'JPY', 756: 'CHF', 826: 'GBP', 840: 'USD', 978: 'EUR' };
export const currencyLabel = (code: number): string => CURRENCIES[code] ?? String(code);

const AMOUNT = /^\d{1,9}(?:\.\d{1,2})?$/;
// The processor's codes are a few digits; past this many distinct ones a code is counted as other.
const CODES_MAX = 64;
const codesSeen = new Set<string>();

/** The leading number of "27 System Error, Please Try Again"; other when there is none. */
export function declineCode(reason: string): string {
  const code = /^(\d{1,5})(?:\s|$)/.exec(reason)?.[1] ?? 'other';
  if (code === 'other' || codesSeen.has(code)) return code;
  if (codesSeen.size >= CODES_MAX) return 'other';
  codesSeen.add(code);
  return code;
}

/** The site's currency's revenue series at 0 from the start (a dashboard's revenue panel then has a line before the first sale). */
export function announceCurrency(currencyCode: number): void {
  for (const kind of ['membership', 'vod']) revenue.inc({ currency: currencyLabel(currencyCode), kind }, 0);
}

export function recordPaymentOutcome(step: string, outcome: string): void {
  paymentOutcomes.inc({ step, outcome });
}

/** One settled attempt: its outcome, and an approval's sale and money or a decline's code. */
export function countSettled(status: string, facts: SettledFacts): void {
  recordPaymentOutcome('settle', status);
  if ('kind' in facts) {
    sales.inc({ kind: facts.kind });
    if (AMOUNT.test(facts.amount)) revenue.inc({ currency: currencyLabel(facts.currencyCode), kind: facts.kind }, Number(facts.amount));
  } else if (status === 'declined') {
    declines.inc({ code: declineCode(facts.reason) });
  }
}

/**
 * One stored lifecycle webhook (after its transaction committed). A renewal's billed amount is in
 * the site's currency, the one memberships are sold in. NewSale/UpSale events are settlements,
 * counted by countSettled when they settle an attempt.
 */
export function countWebhook(eventType: string, billed: string | undefined, currencyCode: number): void {
  if (/^(?:NewSale|UpSale)/.test(eventType)) return;
  const event = EVENTS[eventType] ?? 'other';
  events.inc({ event });
  if (event === 'renewal' && billed !== undefined && AMOUNT.test(billed))
    revenue.inc({ currency: currencyLabel(currencyCode), kind: 'membership' }, Number(billed));
}
