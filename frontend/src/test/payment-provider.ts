import { paymentConfig } from '../features/payment/config';
import { HIDDEN_DEFAULTS } from '../features/payment/formData';
import { json, stubFetch } from './render';
import { validFields } from './fixtures';

/** A complete join form as the payment page submits it. */
export const form = { ...validFields(), ...HIDDEN_DEFAULTS };
export const TOKEN_URL = `${paymentConfig.providerBase}/payment-tokens/merchant-only-verify`;

/** The four calls of spec §4's chain, each approving unless `overrides` answers it otherwise. */
export function provider(overrides: Record<string, () => Response> = {}) {
  const answers: Record<string, () => Response> = {
    '/api/get_ccbill_token': () => json({ access_token: 'front-token' }),
    [TOKEN_URL]: () => json({ paymentTokenId: 'a'.repeat(32) }),
    '/api/get_ccbill_back_token': () => json({ access_token: 'back-token' }),
    '/api/process_payment': () => json({ approved: true }),
    ...overrides,
  };
  return stubFetch((url) => answers[url]?.() ?? json({}, 404));
}
