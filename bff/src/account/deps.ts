import type { DatalinkSettings } from '../provider/datalink';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { KeyRing } from '@media-site/contracts/token';
import type { CcbillClient } from '../provider/client';
import type { AddressList } from '../security/address-list';
import type { RateLimiter } from '../security/rate-limit';
import type { HolidayList } from '@media-site/db/moderation';
import type { MailSite } from '@media-site/db/mail';

export interface AccountSettings {
  /** The provider's subscription management API (Cancel renewal); null: off (e-mail support instead). */
  datalink: DatalinkSettings | null;
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
  /** ADMIN_SECRET_KEYS: seals admins' TOTP secrets at rest (db/src/admin/secret-box.ts). */
  adminSecretKeys: KeyRing;
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
  /** Searches computed (cache misses) per address block and minute. */
  searchesPerMinute: number;
  /** Playback position writes per member (PUT/DELETE /api/positions/...). */
  positionWritesPerMinute: number;
  /** REPORT_HOLIDAYS: the report form promises the deadlines operators work to (db's CLI reads the same). */
  reportHolidays: HolidayList;
  /** The operator console's sessions and sign-in limits (ADMIN_*). */
  admin: AdminSettings;
  /** SITE_NAME and SITE_URL: what mail calls the site and where its links point. */
  site: MailSite;
}

export interface AdminSettings {
  /** NODE_ENV is production: the WebAuthn relying party is SITE_URL only, never the Host header. */
  production: boolean;
  sessionIdleMs: number;
  sessionAbsoluteMs: number;
  /** Wrong TOTP codes per 15 minutes per budget (address and name, known browser, other browsers) before a proof of work is asked. */
  signInFailures: number;
  /** Wrong TOTP codes per day for a name from browsers it never signed in from, before those are refused. */
  newBrowserFailuresPerDay: number;
  /** How long a confirmation (fresh code or passkey) allows sensitive changes in a session. */
  confirmMs: number;
  signInPerMinute: number;
  /** INGEST_ROOT: the folders the console may ingest (its direct sub-folders only). */
  ingestRoot: string;
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
