import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';

describe('card provider configuration', () => {
  it('uses the local defaults when the account variables are unset, and reads digits when set', () => {
    expect(loadConfig({})).toMatchObject({ CCBILL_CLIENT_ACCNUM: 900000, CCBILL_CLIENT_SUBACC: 0 });
    expect(loadConfig({ CCBILL_CLIENT_ACCNUM: ' 945123 ', CCBILL_CLIENT_SUBACC: '0001' })).toMatchObject({
      CCBILL_CLIENT_ACCNUM: 945123,
      CCBILL_CLIENT_SUBACC: 1,
    });
  });

  it('refuses empty account numbers and credentials (compose passes unset variables as empty) instead of reading 0', () => {
    const load = () =>
      loadConfig({ CCBILL_CLIENT_ACCNUM: '', CCBILL_CLIENT_SUBACC: ' ', CCBILL_FRONTEND_APP_ID: '', CCBILL_BACKEND_SECRET: '' });
    expect(load).toThrow(/CCBILL_CLIENT_ACCNUM: must be the provider's account number in digits \(empty is not allowed/);
    expect(load).toThrow(/CCBILL_CLIENT_SUBACC: must be the provider's account number/);
    expect(load).toThrow(/CCBILL_FRONTEND_APP_ID: must not be empty/);
    expect(load).toThrow(/CCBILL_BACKEND_SECRET: must not be empty/);
  });

  it('refuses non-digits and out-of-range numbers', () => {
    expect(() => loadConfig({ CCBILL_CLIENT_ACCNUM: '12a' })).toThrow(/CCBILL_CLIENT_ACCNUM: must be/);
    expect(() => loadConfig({ CCBILL_CLIENT_ACCNUM: '-1' })).toThrow(/CCBILL_CLIENT_ACCNUM: must be/);
    expect(() => loadConfig({ CCBILL_CLIENT_SUBACC: '10000' })).toThrow(/CCBILL_CLIENT_SUBACC: at most 9999/);
  });
});
