import { describe, expect, it } from 'vitest';
import { emptyFields, expiryYears, FIELD_NAMES, MONTHS } from './formData';
import { validFields } from '../../test/fixtures';
import { luhnValid, validateAll, validateField } from './validation';

const NOW = new Date(2025, 5, 15);

describe('payment validation', () => {
  it('accepts a complete form with address2 empty', () => {
    expect(validateAll(validFields(), NOW)).toEqual({});
  });

  it('requires every field but address2', () => {
    const errors = validateAll(emptyFields(), NOW);
    // The form's own field list, less the one optional line (spec §3), is what must be filled in.
    expect(Object.keys(errors).sort()).toEqual(FIELD_NAMES.filter((name) => name !== 'address2').sort());
    expect(FIELD_NAMES).toHaveLength(17);
    expect(errors.username).toBe('This field is required.');
  });

  it('offers months 01-12 and this year plus nine', () => {
    expect(MONTHS).toEqual(['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12']);
    expect(expiryYears(NOW)).toEqual(['2025', '2026', '2027', '2028', '2029', '2030', '2031', '2032', '2033', '2034']);
    expect(validateField('expYear', { ...validFields(), expYear: '2035' }, NOW)).toBe('Choose the expiration year.');
    expect(validateField('expYear', { ...validFields(), expYear: '2025', expMonth: '05' }, NOW)).toBe('This card has expired.');
    expect(validateField('expYear', { ...validFields(), expYear: '2025', expMonth: '06' }, NOW)).toBeNull();
  });

  it.each([
    ['username', 'ab'],
    ['username', 'has space'],
    ['username', 'a'.repeat(16)],
    ['password', 'short'],
    ['password', 'x'.repeat(65)],
    ['email', 'not-an-email'],
    ['cardNumber', '4111 1111 1111 1112'],
    ['cardNumber', '12345'],
    ['cvv2', '12'],
    ['cvv2', '12a'],
    ['firstName', 'Zoë'],
    ['address1', 'Straße 1'],
    ['country', 'USA'],
    ['postalCode', '!'],
    ['phoneNumber', '12'],
  ] as const)('refuses %s = %j', (field, value) => {
    expect(validateField(field, { ...validFields(), [field]: value }, NOW)).not.toBeNull();
  });

  it('checks card numbers with Luhn', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('5555555555554444')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
  });
});
