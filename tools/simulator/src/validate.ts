import type { FieldError } from './errors';
import { luhnValid } from './luhn';

type Json = Record<string, unknown>;

const ASCII = /^[\x20-\x7E]*$/;

function obj(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

function intIn(value: unknown, max: number): boolean {
  return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= max;
}

/** merchant-only-verify request checks (reference/ccbill.md §2); returns field errors. */
export function paymentTokenErrors(body: Json): FieldError[] {
  const errors: FieldError[] = [];
  const need = (ok: boolean, field: string, message: string) => {
    if (!ok) errors.push({ field, message });
  };
  need(intIn(body.clientAccnum, 999_999), 'clientAccnum', 'must be an integer up to 999999');
  need(intIn(body.clientSubacc, 9999), 'clientSubacc', 'must be an integer up to 9999');
  need(body.subscriptionId === 0 || body.subscriptionId === '0', 'subscriptionId', 'must be 0 for a new card');
  need(intIn(body.timeToLive, 10_000), 'timeToLive', 'must be a number of hours');
  need(intIn(body.validNumberOfUse, 1000), 'validNumberOfUse', 'must be a positive integer');
  const customer = obj(body.customerInfo);
  if (!customer) errors.push({ field: 'customerInfo', message: 'is required' });
  else {
    for (const field of ['customerFname', 'customerLname', 'email', 'zipcode', 'country']) {
      need(typeof customer[field] === 'string' && (customer[field] as string).trim() !== '', `customerInfo.${field}`, 'must not be blank');
    }
    for (const field of ['customerFname', 'customerLname', 'address1', 'address2', 'city', 'state']) {
      const value = customer[field];
      need(value === undefined || (typeof value === 'string' && ASCII.test(value)), `customerInfo.${field}`, 'Unsupported characters');
    }
  }
  const card = obj(obj(body.paymentInfo)?.creditCardPaymentInfo);
  if (!card) errors.push({ field: 'paymentInfo.creditCardPaymentInfo', message: 'is required' });
  else {
    need(typeof card.cardNum === 'string' && luhnValid(card.cardNum), 'paymentInfo.creditCardPaymentInfo.cardNum', 'Invalid card number');
    need(
      typeof card.nameOnCard === 'string' && card.nameOnCard.trim() !== '' && ASCII.test(card.nameOnCard),
      'paymentInfo.creditCardPaymentInfo.nameOnCard',
      'must not be blank',
    );
    need(
      typeof card.expMonth === 'string' && /^(?:0[1-9]|1[0-2])$/.test(card.expMonth),
      'paymentInfo.creditCardPaymentInfo.expMonth',
      'must be 01-12',
    );
    need(typeof card.expYear === 'string' && /^\d{4}$/.test(card.expYear), 'paymentInfo.creditCardPaymentInfo.expYear', 'must be yyyy');
    need(typeof card.cvv2 === 'string' && /^\d{3,4}$/.test(card.cvv2), 'paymentInfo.creditCardPaymentInfo.cvv2', 'must be 3 or 4 digits');
  }
  return errors;
}

/** Charge request checks (reference/ccbill.md §3). */
export function chargeErrors(body: Json): FieldError[] {
  const errors: FieldError[] = [];
  const need = (ok: boolean, field: string, message: string) => {
    if (!ok) errors.push({ field, message });
  };
  const decimal = (v: unknown) =>
    (typeof v === 'number' && Number.isFinite(v) && v >= 0) || (typeof v === 'string' && /^\d+(?:\.\d{1,2})?$/.test(v));
  need(intIn(body.clientAccnum, 999_999), 'clientAccnum', 'must be an integer up to 999999');
  need(intIn(body.clientSubacc, 9999), 'clientSubacc', 'must be an integer up to 9999');
  need(decimal(body.initialPrice), 'initialPrice', 'must be a decimal');
  need(intIn(body.initialPeriod, 10_000), 'initialPeriod', 'must be a number of days');
  need(body.recurringPrice === undefined || decimal(body.recurringPrice), 'recurringPrice', 'must be a decimal');
  need(body.recurringPeriod === undefined || intIn(body.recurringPeriod, 10_000), 'recurringPeriod', 'must be a number of days');
  need(body.rebills === undefined || intIn(body.rebills, 99), 'rebills', 'must be 0-99');
  // Numeric ISO 4217; a number is what we send, the provider accepts both.
  need(/^\d{3}$/.test(String(body.currencyCode ?? '')), 'currencyCode', 'must be an ISO 4217 numeric code');
  need(body.passThroughInfo === undefined || Array.isArray(body.passThroughInfo), 'passThroughInfo', 'must be a list of { name, value }');
  return errors;
}
