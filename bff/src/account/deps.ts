import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { KeyRing } from '@media-site/contracts/token';
import type { BffConfig } from '../config';
import { createRedis } from '../cache/redis';
import { CcbillClient } from '../provider/client';
import type { AddressList } from '../security/address-list';
import { memoryRateLimiter, redisRateLimiter, type RateLimiter } from '../security/rate-limit';
import type { HolidayList } from '@media-site/db/reports/business-days';
import { setHashQueueLimits } from '@media-site/db/members/password';
import type { MailSite } from '@media-site/db/mail';

export interface AccountSettings {
  /** What the browser calls to create payment tokens (also what a CSP must allow). */
  providerPublicBase: string;
  clientAccnum: number;
  clientSubacc: number;
  membership: { price: string; periodDays: number; rebills: number };
  currencyCode: number;
  vodPeriodDays: number;
  chargeTimeoutMs: number;
  mediaKeys: KeyRing;
  /** SIGNIN_KEYS: device cookies and other sign-in secrets, each under a key derived per purpose (security/device-cookie.ts). */
  signinKeys: KeyRing;
  mediaTokenTtlSeconds: number;
  downloadLinkTtlHours: number;
  /** Edge URLs for a CDN (media-service/README.md "Edge URLs for a CDN"), when EDGE_URL_SECRET is set. */
  edge?: { secret: string; ttlSeconds: number; baseUrl: string };
  sessionTtlHours: number;
  trustedProxies: AddressList;
  webhookAllowed: AddressList;
  /** WEBHOOK_PROXY_SECRET: the header only nginx's webhook location adds; unset (not production): the address alone. */
  webhookProxySecret?: string;
  allowedOrigins: string[];
  loginPerMinute: number;
  /** Sign-in attempts per username per 15 minutes: per address, per known device, and from unknown devices together. */
  loginPerAccount: number;
  paymentPerMinute: number;
  /** `GET /api/username-available` per address. */
  usernameChecksPerMinute: number;
  /** Playback position writes per member (PUT/DELETE /api/positions/...). */
  positionWritesPerMinute: number;
  /** REPORT_HOLIDAYS: the report form promises the deadlines operators work to (db's CLI reads the same). */
  reportHolidays: HolidayList;
  /** SITE_NAME and SITE_URL: what mail calls the site and where its links point. */
  site: MailSite;
}

/** Members, payments and webhooks: what their routes and services need. */
export interface AccountDeps {
  knex: Knex;
  logger: Logger;
  provider: CcbillClient;
  limiter: RateLimiter;
  settings: AccountSettings;
  /** Unix ms; tests move the clock. */
  now: () => number;
}

export function accountSettings(config: BffConfig): AccountSettings {
  return {
    providerPublicBase: (config.CCBILL_PUBLIC_BASE_URL ?? config.CCBILL_BASE_URL).replace(/\/$/, ''),
    clientAccnum: config.CCBILL_CLIENT_ACCNUM,
    clientSubacc: config.CCBILL_CLIENT_SUBACC,
    membership: { price: config.MEMBERSHIP_PRICE, periodDays: config.MEMBERSHIP_PERIOD_DAYS, rebills: config.MEMBERSHIP_REBILLS },
    currencyCode: config.PAYMENT_CURRENCY_CODE,
    vodPeriodDays: config.VOD_PURCHASE_PERIOD_DAYS,
    chargeTimeoutMs: config.CCBILL_CHARGE_TIMEOUT_MS,
    mediaKeys: config.MEDIA_TOKEN_KEYS.ring,
    signinKeys: config.SIGNIN_KEYS.ring,
    mediaTokenTtlSeconds: config.MEDIA_TOKEN_TTL_SECONDS,
    downloadLinkTtlHours: config.DOWNLOAD_LINK_TTL_HOURS,
    edge: config.EDGE_URL_SECRET
      ? { secret: config.EDGE_URL_SECRET, ttlSeconds: config.EDGE_URL_TTL_SECONDS, baseUrl: (config.EDGE_BASE_URL ?? '').replace(/\/$/, '') }
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
    positionWritesPerMinute: config.RATE_LIMIT_POSITION_PER_MINUTE,
    reportHolidays: config.REPORT_HOLIDAYS,
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
  const redis = config.REDIS_URL ? createRedis(config.REDIS_URL, { commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS, logger, role: 'commands', ha: config }) : undefined;
  const limiter = redis ? redisRateLimiter(redis, config.CACHE_KEY_PREFIX) : memoryRateLimiter();
  // One queue per process (the thread pool is): sign-in, new members' hashes, password changes.
  setHashQueueLimits({ max: config.LOGIN_HASH_QUEUE_MAX, perOwner: 2 });
  return {
    deps: { knex, logger, provider: providerClient(config), limiter, settings: accountSettings(config), now: Date.now },
    close: () => redis?.disconnect(),
  };
}
