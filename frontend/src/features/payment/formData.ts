// Spec §3 payment form fields; the hidden defaults are spec §9's (the server sets the real price).
export const HIDDEN_DEFAULTS = {
  currency: '840',
  price: '14.99',
  period: '30',
  rebills: '99',
} as const;

export const FIELD_NAMES = [
  'username',
  'password',
  'email',
  'nameOnCard',
  'cardNumber',
  'expMonth',
  'expYear',
  'cvv2',
  'firstName',
  'lastName',
  'address1',
  'address2',
  'city',
  'state',
  'country',
  'postalCode',
  'phoneNumber',
] as const;

export type FieldName = (typeof FIELD_NAMES)[number];

/** What a signed-in member buying a VOD is not asked again: the session says who they are. */
export const CREDENTIAL_FIELDS: readonly FieldName[] = ['username', 'password'];

/** /ccbill?vod={path}: the VOD being bought and its listed price (the server charges its own copy). */
export interface VodOffer {
  path: string;
  price: number | string;
}

export type PaymentFields = Record<FieldName, string>;
export type PaymentFormData = PaymentFields & typeof HIDDEN_DEFAULTS;

export const MONTHS = Array.from({ length: 12 }, (_, index) => String(index + 1).padStart(2, '0'));

export function expiryYears(now = new Date()): string[] {
  const year = now.getFullYear();
  return Array.from({ length: 10 }, (_, index) => String(year + index));
}

export function emptyFields(): PaymentFields {
  return Object.fromEntries(FIELD_NAMES.map((name) => [name, ''])) as PaymentFields;
}
