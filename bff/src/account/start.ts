import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { setHashQueueLimits } from '@media-site/db/members';
import type { BffConfig } from '../config';
import { createRedis } from '../cache/redis';
import { CcbillClient } from '../provider/client';
import { SIMULATOR_DATALINK } from '../provider/config';
import type { DatalinkSettings } from '../provider/datalink';
import { memoryRateLimiter, redisRateLimiter } from '../security/rate-limit';
import type { AccountDeps, AccountSettings } from './deps';

// The account's wiring: configuration in, AccountDeps out (server.ts at start, the test kits per file).

/** Cancel renewal online: off in production while the Data Link user is the simulator's. */
function datalinkSettings(config: BffConfig): DatalinkSettings | null {
  if (config.NODE_ENV === 'production' && config.CCBILL_DATALINK_USERNAME === SIMULATOR_DATALINK.username) return null;
  return {
    url: config.CCBILL_DATALINK_URL ?? `${config.CCBILL_BASE_URL.replace(/\/$/, '')}/utils/subscriptionManagement.cgi`,
    clientAccnum: config.CCBILL_CLIENT_ACCNUM,
    clientSubacc: config.CCBILL_CLIENT_SUBACC,
    username: config.CCBILL_DATALINK_USERNAME,
    password: config.CCBILL_DATALINK_PASSWORD,
    timeoutMs: DATALINK_TIMEOUT_MS,
  };
}

/** A cancellation is one quick call: past this, the member is told to try again (the webhook settles it if it went through). */
const DATALINK_TIMEOUT_MS = 10_000;

export function accountSettings(config: BffConfig): AccountSettings {
  return {
    providerPublicBase: (config.CCBILL_PUBLIC_BASE_URL ?? config.CCBILL_BASE_URL).replace(/\/$/, ''),
    clientAccnum: config.CCBILL_CLIENT_ACCNUM,
    clientSubacc: config.CCBILL_CLIENT_SUBACC,
    membership: { price: config.MEMBERSHIP_PRICE, periodDays: config.MEMBERSHIP_PERIOD_DAYS, rebills: config.MEMBERSHIP_REBILLS },
    currencyCode: config.PAYMENT_CURRENCY_CODE,
    vodPeriodDays: config.VOD_PURCHASE_PERIOD_DAYS,
    chargeTimeoutMs: config.CCBILL_CHARGE_TIMEOUT_MS,
    datalink: datalinkSettings(config),
    mediaKeys: config.MEDIA_TOKEN_KEYS.ring,
    signinKeys: config.SIGNIN_KEYS.ring,
    adminSecretKeys: config.ADMIN_SECRET_KEYS.ring,
    mediaTokenTtlSeconds: config.MEDIA_TOKEN_TTL_SECONDS,
    downloadLinkTtlHours: config.DOWNLOAD_LINK_TTL_HOURS,
    edge: config.EDGE_URL_SECRET
      ? {
          secret: config.EDGE_URL_SECRET,
          ttlSeconds: config.EDGE_URL_TTL_SECONDS,
          baseUrl: (config.EDGE_BASE_URL ?? '').replace(/\/$/, ''),
        }
      : undefined,
    sessionTtlHours: config.SESSION_TTL_HOURS,
    trustedProxies: config.TRUSTED_PROXIES,
    webhookAllowed: config.WEBHOOK_ALLOWED_IPS,
    webhookProxySecret: config.WEBHOOK_PROXY_SECRET,
    allowedOrigins: config.ALLOWED_ORIGINS,
    loginPerMinute: config.RATE_LIMIT_LOGIN_PER_MINUTE,
    loginPerAccount: config.RATE_LIMIT_LOGIN_PER_ACCOUNT,
    paymentPerMinute: config.RATE_LIMIT_PAYMENT_PER_MINUTE,
    usernameChecksPerMinute: config.RATE_LIMIT_USERNAME_PER_MINUTE,
    searchesPerMinute: config.RATE_LIMIT_SEARCH_PER_MINUTE,
    positionWritesPerMinute: config.RATE_LIMIT_POSITION_PER_MINUTE,
    reportHolidays: config.REPORT_HOLIDAYS,
    admin: {
      production: config.NODE_ENV === 'production',
      sessionIdleMs: config.ADMIN_SESSION_IDLE_MINUTES * 60_000,
      sessionAbsoluteMs: config.ADMIN_SESSION_HOURS * 3_600_000,
      signInFailures: config.ADMIN_SIGNIN_FAILURES,
      newBrowserFailuresPerDay: config.ADMIN_SIGNIN_NEW_BROWSER_FAILURES_PER_DAY,
      confirmMs: config.ADMIN_CONFIRM_MINUTES * 60_000,
      signInPerMinute: config.RATE_LIMIT_ADMIN_SIGNIN_PER_MINUTE,
      ingestRoot: config.INGEST_ROOT,
    },
    site: { name: config.SITE_NAME, url: config.SITE_URL },
  };
}

export function providerClient(config: BffConfig): CcbillClient {
  return new CcbillClient({
    baseUrl: config.CCBILL_BASE_URL.replace(/\/$/, ''),
    clientAccnum: config.CCBILL_CLIENT_ACCNUM,
    clientSubacc: config.CCBILL_CLIENT_SUBACC,
    frontend: { appId: config.CCBILL_FRONTEND_APP_ID, secret: config.CCBILL_FRONTEND_SECRET },
    backend: { appId: config.CCBILL_BACKEND_APP_ID, secret: config.CCBILL_BACKEND_SECRET },
    authTimeoutMs: config.CCBILL_AUTH_TIMEOUT_MS,
    chargeTimeoutMs: config.CCBILL_CHARGE_TIMEOUT_MS,
  });
}

/** Builds the account dependencies from configuration; close() drops the rate limiter's Redis connection. */
export function startAccount(config: BffConfig, knex: Knex, logger: Logger): { deps: AccountDeps; close(): void } {
  const redis = config.REDIS_URL
    ? createRedis(config.REDIS_URL, { commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS, logger, role: 'commands', ha: config })
    : undefined;
  const limiter = redis ? redisRateLimiter(redis, config.CACHE_KEY_PREFIX) : memoryRateLimiter();
  // One queue per process (the thread pool is): sign-in, new members' hashes, password changes.
  setHashQueueLimits({ max: config.LOGIN_HASH_QUEUE_MAX, perOwner: 2 });
  return {
    deps: { knex, logger, provider: providerClient(config), limiter, settings: accountSettings(config), now: Date.now },
    close: () => redis?.disconnect(),
  };
}
