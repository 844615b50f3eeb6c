import { z } from 'zod';

const int = (def: number, min: number, max: number) => z.coerce.number().int().min(min).max(max).default(def);

// Coercing would read an empty value (compose's `${VAR:-}`) as 0: a wrong merchant account that
// only shows at the first charge. Unset means the local default; set means digits.
const accountNumber = (def: number, max: number) =>
  z
    .string()
    .default(String(def))
    .pipe(z.string().trim().regex(/^\d+$/, `must be the provider's account number in digits (empty is not allowed; leave it unset for the local default ${def})`))
    .transform(Number)
    .pipe(z.number().int().max(max, `at most ${max}`));

// Set but empty is a mistake too; unset means the simulator's local credentials.
const credential = (def: string) => z.string().trim().min(1, 'must not be empty (leave it unset for the local simulator value)').default(def);

// Local-only defaults: they match tests/simulator, which `npm start` runs. Production sets all of them.
export const SIMULATOR_CREDENTIALS = {
  frontend: { appId: 'sim-frontend-app', secret: 'sim-frontend-secret-local-only' },
  backend: { appId: 'sim-backend-app', secret: 'sim-backend-secret-local-only' },
};

/** Card provider (CCBill RESTful API) and what a membership costs. Prices never come from requests. */
export const providerConfigShape = {
  CCBILL_BASE_URL: z.url().default('http://127.0.0.1:3003'),
  /** The base the browser calls for payment tokens, when it differs from the server's view. */
  CCBILL_PUBLIC_BASE_URL: z.url().optional(),
  CCBILL_CLIENT_ACCNUM: accountNumber(900000, 999_999),
  CCBILL_CLIENT_SUBACC: accountNumber(0, 9999),
  CCBILL_FRONTEND_APP_ID: credential(SIMULATOR_CREDENTIALS.frontend.appId),
  CCBILL_FRONTEND_SECRET: credential(SIMULATOR_CREDENTIALS.frontend.secret),
  CCBILL_BACKEND_APP_ID: credential(SIMULATOR_CREDENTIALS.backend.appId),
  CCBILL_BACKEND_SECRET: credential(SIMULATOR_CREDENTIALS.backend.secret),
  CCBILL_AUTH_TIMEOUT_MS: int(5000, 100, 60_000),
  CCBILL_CHARGE_TIMEOUT_MS: int(20_000, 100, 120_000),
  MEMBERSHIP_PRICE: z
    .string()
    .regex(/^\d{1,5}\.\d{2}$/, 'a decimal like 14.99')
    .default('14.99'),
  MEMBERSHIP_PERIOD_DAYS: int(30, 1, 365),
  MEMBERSHIP_REBILLS: int(99, 0, 99),
  PAYMENT_CURRENCY_CODE: int(840, 1, 999),
  /** A bought VOD is a one-time charge; the provider still wants an initial period. */
  VOD_PURCHASE_PERIOD_DAYS: int(2, 1, 365),
};
