import { describe, expect, it } from 'vitest';
import { COUNTRY_OPTIONS, defaultCountry, groupCardNumber, regionOptions } from './regions';

describe('the billing address pickers', () => {
  it('lists every country by its English name with its ISO code, and the US states and Canadian provinces', () => {
    expect(COUNTRY_OPTIONS.length).toBeGreaterThan(240);
    expect(COUNTRY_OPTIONS).toContainEqual(['US', 'United States']);
    expect(COUNTRY_OPTIONS).toContainEqual(['DE', 'Germany']);
    expect(regionOptions('US')).toContainEqual(['IL', 'Illinois']);
    expect(regionOptions('CA')).toContainEqual(['QC', 'Quebec']);
    expect(regionOptions('DE')).toBeUndefined();
  });

  it("takes the country from the browser's language, when it names one", () => {
    expect(defaultCountry(['en-GB', 'en'])).toBe('GB');
    expect(defaultCountry(['fr', 'de-AT'])).toBe('AT');
    expect(defaultCountry(['zh-Hant-TW'])).toBe('TW');
    expect(defaultCountry(['fr', 'en'])).toBe('');
    expect(defaultCountry(['en-XX'])).toBe('');
  });

  it('groups a card number in fours as typed, digits only, at most 19', () => {
    expect(groupCardNumber('4111111111111111')).toBe('4111 1111 1111 1111');
    expect(groupCardNumber('4111-1111 11')).toBe('4111 1111 11');
    expect(groupCardNumber('4111 ')).toBe('4111');
    expect(groupCardNumber('1'.repeat(25)).replace(/ /g, '')).toHaveLength(19);
  });
});
