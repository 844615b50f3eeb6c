import { luhnValid } from '@media-site/contracts/card';
import { EMAIL, EMAIL_MAX, PASSWORD_MAX, PASSWORD_MIN, USERNAME } from '@media-site/contracts/member-rules';
import { expiryYears, FIELD_NAMES, MONTHS } from './formData';
import type { FieldName, PaymentFields } from './formData';

// The provider refuses anything outside printable ASCII in names and addresses ("Unsupported characters").
const ASCII = /^[\x20-\x7E]*$/;
const ASCII_MESSAGE = 'Use plain letters, digits and punctuation (no accents or symbols).';

export { luhnValid };

export function cardDigits(value: string): string {
  return value.replace(/[\s-]/g, '');
}

function text(value: string, max: number, label: string): string | null {
  if (value.length > max) return `${label} must be at most ${max} characters.`;
  return ASCII.test(value) ? null : ASCII_MESSAGE;
}

type Rule = (value: string, fields: PaymentFields, now: Date) => string | null;

const RULES: Record<FieldName, Rule> = {
  username: (value) => (USERNAME.test(value) ? null : 'Username must be 3 to 15 letters, digits or underscores.'),
  password: (value) =>
    value.length >= PASSWORD_MIN && value.length <= PASSWORD_MAX ? null : `Password must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters.`,
  email: (value) => (value.length <= EMAIL_MAX && EMAIL.test(value) ? null : 'Enter a valid e-mail address.'),
  nameOnCard: (value) => text(value, 64, 'Name on card'),
  cardNumber: (value) => {
    const digits = cardDigits(value);
    if (!/^\d{12,19}$/.test(digits)) return 'Card number must be 12 to 19 digits.';
    return luhnValid(digits) ? null : 'Card number is not valid.';
  },
  expMonth: (value) => (MONTHS.includes(value) ? null : 'Choose the expiration month.'),
  expYear: (value, fields, now) => {
    if (!expiryYears(now).includes(value)) return 'Choose the expiration year.';
    const expired = Number(value) === now.getFullYear() && Number(fields.expMonth) < now.getMonth() + 1;
    return expired ? 'This card has expired.' : null;
  },
  cvv2: (value) => (/^\d{3,4}$/.test(value) ? null : 'CVV2 must be 3 or 4 digits.'),
  firstName: (value) => text(value, 50, 'First name'),
  lastName: (value) => text(value, 50, 'Last name'),
  address1: (value) => text(value, 100, 'Address'),
  address2: (value) => text(value, 100, 'Address line 2'),
  city: (value) => text(value, 50, 'City'),
  state: (value) => text(value, 50, 'State'),
  country: (value) => (/^[A-Za-z]{2}$/.test(value) ? null : 'Use the two-letter country code, e.g. US.'),
  postalCode: (value) => (/^[A-Za-z0-9][A-Za-z0-9 -]{1,9}$/.test(value) ? null : 'Enter a valid postal code.'),
  phoneNumber: (value) => {
    const digits = value.replace(/\D/g, '');
    return /^\+?[\d\s().-]{7,20}$/.test(value) && digits.length >= 7 ? null : 'Enter a valid phone number.';
  },
};

const OPTIONAL = new Set<FieldName>(['address2']);

export type FieldErrors = Partial<Record<FieldName, string>>;

export function validateField(name: FieldName, fields: PaymentFields, now = new Date()): string | null {
  const value = fields[name].trim();
  if (!value) return OPTIONAL.has(name) ? null : 'This field is required.';
  return RULES[name](value, fields, now);
}

/** `skip`: fields the form does not show (a signed-in member buying a VOD has no new credentials). */
export function validateAll(fields: PaymentFields, now = new Date(), skip: readonly FieldName[] = []): FieldErrors {
  const errors: FieldErrors = {};
  for (const name of FIELD_NAMES) {
    if (skip.includes(name)) continue;
    const message = validateField(name, fields, now);
    if (message) errors[name] = message;
  }
  return errors;
}
