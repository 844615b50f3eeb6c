import { BlockList, isIP } from 'node:net';
import { z } from 'zod';
import { placeholderReason, weakProviderSecretReason } from '@media-site/contracts/secret-policy';
import { membershipTermsShape } from '@media-site/db/payments';
import { intSetting } from '../config-schema';

// Coercing would read an empty value (compose's `${VAR:-}`) as 0: a wrong merchant account that
// only shows at the first charge. Unset means the local default; set means digits.
const accountNumber = (def: number, max: number) =>
  z
    .string()
    .default(String(def))
    .pipe(
      z
        .string()
        .trim()
        .regex(
          /^\d+$/,
          `must be the provider's account number in digits (empty is not allowed; leave it unset for the local default ${def})`,
        ),
    )
    .transform(Number)
    .pipe(z.number().int().max(max, `at most ${max}`));

// Set but empty is a mistake too; unset means the simulator's local credentials.
const credential = (def: string) =>
  z.string().trim().min(1, 'must not be empty (leave it unset for the local simulator value)').default(def);

// Local-only defaults: they match tools/simulator (@media-site/simulator), which `npm start` runs.
// Production sets all of them.
export const SIMULATOR_CREDENTIALS = {
  frontend: { appId: 'sim-frontend-app', secret: 'sim-frontend-secret-local-only' },
  backend: { appId: 'sim-backend-app', secret: 'sim-backend-secret-local-only' },
};

const SIMULATOR_BASE_URL = 'http://127.0.0.1:3003';
/** The simulator's Data Link user (tools/simulator); production turns Cancel renewal off while these stay. */
export const SIMULATOR_DATALINK = { username: 'sim-datalink', password: 'sim-datalink-password-local-only' };
const SIMULATOR_ACCNUM = 900000;

const OAUTH_PART = {
  appId: { name: 'application id', refused: "the simulator's and `change-me`" },
  secret: { name: 'secret', refused: "the simulator's, `change-me` and secrets under 16 characters" },
};

/** One of the two OAuth applications' id or secret: the simulator's locally, the operator's in production. */
const oauthCredential = (app: keyof typeof SIMULATOR_CREDENTIALS, part: keyof typeof OAUTH_PART) =>
  credential(SIMULATOR_CREDENTIALS[app][part]).meta({
    description: `the ${app} OAuth ${OAUTH_PART[part].name}; production refuses ${OAUTH_PART[part].refused}`,
    defaultText: "the simulator's",
    production: 'required',
  });

/** Card provider (CCBill RESTful API) and what a membership costs. Prices never come from requests. */
export const providerConfigShape = {
  CCBILL_BASE_URL: z.url().default(SIMULATOR_BASE_URL).meta({
    description:
      'the card provider API: the simulator locally, `https://api.ccbill.com` in production; production: https and not this machine',
    production: 'required',
  }),
  CCBILL_PUBLIC_BASE_URL: z.url().optional().meta({
    description:
      "the base the browser calls for payment tokens, when it differs from the server's view; production: https and not this machine",
    defaultText: 'CCBILL_BASE_URL',
  }),
  CCBILL_CLIENT_ACCNUM: accountNumber(SIMULATOR_ACCNUM, 999_999).meta({
    description: "the merchant account number (production refuses the simulator's 900000)",
    production: 'required',
  }),
  CCBILL_CLIENT_SUBACC: accountNumber(0, 9999).describe('the merchant subaccount'),
  CCBILL_FRONTEND_APP_ID: oauthCredential('frontend', 'appId'),
  CCBILL_FRONTEND_SECRET: oauthCredential('frontend', 'secret'),
  CCBILL_BACKEND_APP_ID: oauthCredential('backend', 'appId'),
  CCBILL_BACKEND_SECRET: oauthCredential('backend', 'secret'),
  CCBILL_AUTH_TIMEOUT_MS: intSetting(5000, 100, 60_000).describe("timeout of the provider's OAuth call"),
  CCBILL_DATALINK_URL: z.url().optional().meta({
    description:
      "the provider's subscription management API, for Cancel renewal on /account: `https://datalink.ccbill.com/utils/subscriptionManagement.cgi` in production",
    defaultText: 'CCBILL_BASE_URL + `/utils/subscriptionManagement.cgi` (the simulator)',
  }),
  CCBILL_DATALINK_USERNAME: credential(SIMULATOR_DATALINK.username).meta({
    description:
      "the Data Link user the provider set up for the subscription management API; production with the simulator's turns Cancel renewal off (the account page then says to e-mail support)",
    defaultText: "the simulator's",
  }),
  CCBILL_DATALINK_PASSWORD: credential(SIMULATOR_DATALINK.password).meta({
    description: "that Data Link user's password",
    defaultText: "the simulator's",
  }),
  CCBILL_CHARGE_TIMEOUT_MS: intSetting(20_000, 100, 120_000).describe('timeout of a charge (a charge is never retried)'),
  MEMBERSHIP_PRICE: z
    .string()
    .regex(/^\d{1,5}\.\d{2}$/, 'a decimal like 14.99')
    .default('14.99')
    .describe(
      'what a membership costs (spec §9) until an owner sets prices in the console (its Prices screen wins); never taken from a request',
    ),
  // Shared with the operator CLI's reconcile, which reads them without this configuration.
  MEMBERSHIP_PERIOD_DAYS: membershipTermsShape.MEMBERSHIP_PERIOD_DAYS,
  MEMBERSHIP_REBILLS: membershipTermsShape.MEMBERSHIP_REBILLS,
  PAYMENT_CURRENCY_CODE: intSetting(840, 1, 999).describe('ISO 4217 numeric currency code of every charge (840: US dollars)'),
  VOD_PURCHASE_PERIOD_DAYS: intSetting(2, 1, 365).describe('the initial period sent with a one-time VOD charge (the provider wants one)'),
};

interface ProviderProductionView {
  CCBILL_BASE_URL: string;
  CCBILL_PUBLIC_BASE_URL?: string | undefined;
  CCBILL_CLIENT_ACCNUM: number;
  CCBILL_FRONTEND_APP_ID: string;
  CCBILL_FRONTEND_SECRET: string;
  CCBILL_BACKEND_APP_ID: string;
  CCBILL_BACKEND_SECRET: string;
}

// This machine: where `npm start` runs the simulator.
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addSubnet('0.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');
LOOPBACK.addAddress('::', 'ipv6');

function isLoopbackHost(hostname: string): boolean {
  let host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  // "localhost." is localhost: a trailing dot only says the name is fully qualified.
  while (host.endsWith('.')) host = host.slice(0, -1);
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const family = isIP(host);
  return family !== 0 && LOOPBACK.check(host, family === 4 ? 'ipv4' : 'ipv6');
}

/** Why a provider base URL is the simulator's rather than the provider's, or undefined. */
function simulatorUrlReason(value: string): string | undefined {
  const url = new URL(value);
  if (isLoopbackHost(url.hostname))
    return `"${value}" is this machine (the local simulator); production calls the provider, https://api.ccbill.com`;
  // Basic credentials and card data travel on these calls: never in clear text.
  if (url.protocol !== 'https:')
    return `"${value}" is plain ${url.protocol.replace(':', '')}; production calls the provider over https (https://api.ccbill.com)`;
  return undefined;
}

/**
 * Production: the provider's own account, credentials and https address, never the simulator's.
 * Run on a production config only.
 */
export function refuseSimulatorInProduction(config: ProviderProductionView, ctx: z.RefinementCtx): void {
  const issue = (key: keyof ProviderProductionView, message: string) => ctx.addIssue({ code: 'custom', path: [key], message });
  for (const key of ['CCBILL_BASE_URL', 'CCBILL_PUBLIC_BASE_URL'] as const) {
    const value = config[key];
    const reason = value === undefined ? undefined : simulatorUrlReason(value);
    if (reason) issue(key, reason);
  }
  if (config.CCBILL_CLIENT_ACCNUM === SIMULATOR_ACCNUM)
    issue('CCBILL_CLIENT_ACCNUM', `${SIMULATOR_ACCNUM} is the simulator's account; set the merchant account number the provider gave you`);
  for (const [side, pair] of Object.entries(SIMULATOR_CREDENTIALS) as [string, { appId: string }][]) {
    const key = side === 'frontend' ? 'CCBILL_FRONTEND_APP_ID' : 'CCBILL_BACKEND_APP_ID';
    const reason = config[key] === pair.appId ? "is the simulator's" : placeholderReason(config[key]);
    if (reason) issue(key, `${reason}; set the ${side} application id the provider issued`);
  }
  for (const key of ['CCBILL_FRONTEND_SECRET', 'CCBILL_BACKEND_SECRET'] as const) {
    const reason = weakProviderSecretReason(config[key]);
    if (reason) issue(key, `${reason}; set the secret the provider issued with this application id`);
  }
}
