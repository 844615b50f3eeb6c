import { z } from 'zod';
import {
  DEV_ADMIN_SECRET_KEYS,
  DEV_SIGNIN_KEYS,
  GENERATE_SECRET,
  keyRingProblems,
  nodeEnvSchema,
  placeholderReason,
  weakKeyReason,
} from '@media-site/contracts/secret-policy';
import { commaList } from '@media-site/contracts/comma-list';
import { DEV_TOKEN_KEYS, parseKeyRing, type KeyRing } from '@media-site/contracts/token';
import { CCBILL_WEBHOOK_RANGES, parseAddressList, type AddressList } from './address-list';
import { originOf } from './origin';
import { intSetting, parsedBy } from '../config-schema';

const addressList = (def: string) => z.string().default(def).transform(parsedBy(parseAddressList));

/** "kid:secret,kid2:secret2": the spec (for the production checks) and the parsed ring. */
const keyRing = (def: string) =>
  z
    .string()
    .default(def)
    .transform(parsedBy((spec) => ({ spec, ring: parseKeyRing(spec) })));

/** Sessions, media tokens, request guards. Defaults are for local use; see bff/README.md. */
export const securityConfigShape = {
  NODE_ENV: nodeEnvSchema,
  MEDIA_TOKEN_KEYS: keyRing(DEV_TOKEN_KEYS).meta({
    description:
      "media token keys, `kid:secret,kid2:secret2`: the first signs, all verify; the same ring as the media service's; production: every secret 32 random bytes (`openssl rand -base64 48`)",
    defaultText: 'a dev key (local only)',
    production: 'required',
  }),
  // A ring of its own: the media keys are shared with the media service, these stay in the bff.
  SIGNIN_KEYS: keyRing(DEV_SIGNIN_KEYS).meta({
    description:
      'sign-in secrets (device cookies; one key derived per purpose), same `kid:secret` ring format; production: every secret 32 random bytes (`openssl rand -base64 48`) and none equal to a `MEDIA_TOKEN_KEYS` secret',
    defaultText: 'a dev key (local only)',
    production: 'required',
  }),
  // A ring of its own too: it opens the console admins' TOTP secrets, and the operator CLI holds it.
  ADMIN_SECRET_KEYS: keyRing(DEV_ADMIN_SECRET_KEYS).meta({
    description:
      "seals operator console admins' TOTP secrets at rest (AES-256-GCM), same `kid:secret` ring format: the first key seals, every key opens, older rows are re-sealed at sign-in or by `admin rekey`; the same value for the bff and the operator CLI; production: every secret 32 random bytes (`openssl rand -base64 48`) and none equal to a `MEDIA_TOKEN_KEYS` or `SIGNIN_KEYS` secret",
    defaultText: 'a dev key (local only)',
    production: 'required',
  }),
  MEDIA_TOKEN_TTL_SECONDS: intSetting(300, 30, 3600).describe(
    "the media token's life (its cookie lasts the browser session); revocation reaches sessions within this time",
  ),
  DOWNLOAD_LINK_TTL_HOURS: intSetting(48, 24, 24 * 14).describe("a signed download link's life"),
  EDGE_URL_SECRET: z
    .preprocess((v) => (v === '' ? undefined : v), z.string().min(16).optional())
    .describe(
      'edge URLs a CDN verifies at its edge (nginx `secure_link` md5 format, media-service/README.md "Edge URLs for a CDN"); the same value for the bff, the media service and nginx; production refuses placeholders and under 32 random bytes (`openssl rand -hex 32`); unset or empty: none issued and `/edge/` answers 404',
    ),
  // An edge URL is checked at a CDN's edge, which cannot know a member was revoked or signed out
  // everywhere, and a CDN's cached copy answers it without asking the origin: so it is short (the
  // origin refuses it after the member's valid-from time, docs/security.md).
  EDGE_URL_TTL_SECONDS: intSetting(300, 60, 48 * 3600).describe(
    "an edge URL's life (60 s to 48 h; a CDN's cached copy answers it without asking the origin, so a revoked or signed-out member's URL works there this long, at the origin only until the next revocation poll)",
  ),
  EDGE_BASE_URL: z
    .preprocess((v) => (v === '' ? undefined : v), z.url().optional())
    .describe("the CDN's origin edge URLs point at (e.g. https://cdn.example.com); unset or empty: site-relative"),
  SESSION_TTL_HOURS: intSetting(24 * 30, 1, 24 * 365).describe("a session's life"),
  ADMIN_SESSION_IDLE_MINUTES: intSetting(30, 5, 240).describe(
    'an operator console session ends after this many minutes without a request (cookie `admin_sid`, docs/security.md "Operator console")',
  ),
  ADMIN_SESSION_HOURS: intSetting(8, 1, 24).describe("an operator console session's absolute life, however busy"),
  ADMIN_SIGNIN_FAILURES: intSetting(5, 3, 20).describe(
    "wrong console TOTP codes per 15 minutes (per address and name, per browser the admin signed in from, and from all other browsers of a name together) before each further try needs a proof of work (about a second of the browser's CPU); nothing locks the account, and a passkey is never refused for them",
  ),
  ADMIN_SIGNIN_NEW_BROWSER_FAILURES_PER_DAY: intSetting(50, 10, 1000).describe(
    "wrong console TOTP codes per 24 hours for one name from browsers it never signed in from, after which such browsers are refused codes for that name until the day's window ends (a guessing ceiling); the admin's passkeys and the browsers it signed in from before still work",
  ),
  ADMIN_CONFIRM_MINUTES: intSetting(5, 1, 30).describe(
    'how long a fresh TOTP code or passkey, asked for in the console, lets that session make sensitive changes (passkeys, admins, roles, secrets)',
  ),
  RATE_LIMIT_ADMIN_SIGNIN_PER_MINUTE: intSetting(10, 1, 10_000).describe('console sign-in requests per client address per minute'),
  TRUSTED_PROXIES: addressList('127.0.0.1,::1').describe(
    "peers whose `X-Forwarded-For` / `X-Forwarded-Proto` headers are believed: exactly the front door's address (compose: nginx's `NGINX_ADDRESS` only); production refuses an entry wider than one /24 (/64)",
  ),
  TRUSTED_PROXIES_ALLOW_WIDE: z
    .enum(['true', 'false'])
    .default('false')
    .describe('`true` lets production trust a `TRUSTED_PROXIES` range wider than one /24 (/64), when every host in it is a proxy you run'),
  WEBHOOK_ALLOWED_IPS: addressList(CCBILL_WEBHOOK_RANGES).meta({
    description:
      'webhook source allow-list, checked by nginx (addresses and CIDRs only) and by the bff (also ranges `a-b`); `npm start` adds loopback for the simulator; production refuses entries wider than one /24, and private and loopback entries unless `WEBHOOK_ALLOWED_IPS_ALLOW_PRIVATE=true`',
    defaultText: "the provider's four /24 ranges",
  }),
  WEBHOOK_ALLOWED_IPS_ALLOW_PRIVATE: z
    .enum(['true', 'false'])
    .default('false')
    .describe("`true` lets production allow private or loopback webhook sources (the demo shape's simulator)"),
  // Proof a delivery passed the front door's allow-list, which X-Forwarded-For from any host beside
  // nginx is not.
  WEBHOOK_PROXY_SECRET: z
    .preprocess(
      (v) => (v === '' ? undefined : v),
      z
        .string()
        .min(16)
        // nginx's config quotes it: no quote, space or "$" (a variable there).
        .regex(/^[\w+/=.-]+$/, 'letters, digits and + / = . _ - only (nginx writes it into its config); e.g. openssl rand -hex 32')
        .optional(),
    )
    .meta({
      description:
        "nginx's webhook location (and only it) adds it as `X-Webhook-Proxy-Secret`; the bff refuses webhooks without it (403), so only deliveries through nginx's allow-list count; the same value for nginx and the bff, 32 random bytes (`openssl rand -hex 32`); `npm start` generates one; unset outside production: the source address alone",
      production: 'required',
    }),
  ALLOWED_ORIGINS: z
    .string()
    .default('')
    .transform((v, ctx) =>
      commaList(v).map((o) => {
        const origin = originOf(o);
        if (origin) return origin;
        ctx.addIssue({ code: 'custom', message: `"${o}" is not an origin such as https://example.com:8443` });
        return z.NEVER;
      }),
    )
    .describe("extra origins (scheme, host and port) allowed to send state-changing requests; the site's own origin always is"),
  RATE_LIMIT_LOGIN_PER_MINUTE: intSetting(10, 1, 100_000).describe('sign-in requests per address and minute (Redis, or in-process)'),
  RATE_LIMIT_PAYMENT_PER_MINUTE: intSetting(20, 1, 100_000).describe('payment requests per address and minute (Redis, or in-process)'),
};

interface ProductionView {
  MEDIA_TOKEN_KEYS: { spec: string; ring: KeyRing };
  SIGNIN_KEYS: { spec: string; ring: KeyRing };
  ADMIN_SECRET_KEYS: { spec: string; ring: KeyRing };
  TRUSTED_PROXIES: AddressList;
  TRUSTED_PROXIES_ALLOW_WIDE: 'true' | 'false';
  WEBHOOK_ALLOWED_IPS: AddressList;
  WEBHOOK_ALLOWED_IPS_ALLOW_PRIVATE: 'true' | 'false';
  WEBHOOK_PROXY_SECRET?: string | undefined;
}

/** A key of `ring` that is also a secret of another ring: each purpose needs its own. */
function sharedSecrets(ctx: z.RefinementCtx, path: string, ring: KeyRing, others: Record<string, KeyRing>, purpose: string): void {
  for (const [kid, secret] of ring.byId)
    for (const [name, other] of Object.entries(others))
      if ([...other.byId.values()].some((s) => s.equals(secret)))
        ctx.addIssue({
          code: 'custom',
          path: [path],
          message: `key "${kid}" is also a ${name} secret; ${purpose} needs its own: ${GENERATE_SECRET}`,
        });
}

/** Production: real media keys, and only the front door's own address believed. Run on a production config only. */
export function refuseLocalSecurityInProduction(config: ProductionView, ctx: z.RefinementCtx): void {
  for (const problem of keyRingProblems(config.MEDIA_TOKEN_KEYS.spec))
    ctx.addIssue({ code: 'custom', path: ['MEDIA_TOKEN_KEYS'], message: problem });
  for (const problem of keyRingProblems(config.SIGNIN_KEYS.spec, DEV_SIGNIN_KEYS))
    ctx.addIssue({ code: 'custom', path: ['SIGNIN_KEYS'], message: problem });
  for (const problem of keyRingProblems(config.ADMIN_SECRET_KEYS.spec, DEV_ADMIN_SECRET_KEYS))
    ctx.addIssue({ code: 'custom', path: ['ADMIN_SECRET_KEYS'], message: problem });
  // The media service holds the media keys too: a sign-in key equal to one would be known there.
  sharedSecrets(ctx, 'SIGNIN_KEYS', config.SIGNIN_KEYS.ring, { MEDIA_TOKEN_KEYS: config.MEDIA_TOKEN_KEYS.ring }, 'sign-in');
  sharedSecrets(
    ctx,
    'ADMIN_SECRET_KEYS',
    config.ADMIN_SECRET_KEYS.ring,
    { MEDIA_TOKEN_KEYS: config.MEDIA_TOKEN_KEYS.ring, SIGNIN_KEYS: config.SIGNIN_KEYS.ring },
    'sealing admin secrets',
  );
  if (config.TRUSTED_PROXIES.wide.length > 0 && config.TRUSTED_PROXIES_ALLOW_WIDE !== 'true') {
    ctx.addIssue({
      code: 'custom',
      path: ['TRUSTED_PROXIES'],
      message:
        `${config.TRUSTED_PROXIES.wide.join(', ')} ${config.TRUSTED_PROXIES.wide.length > 1 ? 'reach' : 'reaches'} past one /24 (/64 for IPv6): every host in it could claim any client address and forge provider webhooks. ` +
        "List the address of the proxy in front of the bff (the nginx container's fixed address), or set TRUSTED_PROXIES_ALLOW_WIDE=true if every host in the range is a proxy you run",
    });
  }
  if (config.WEBHOOK_ALLOWED_IPS.wide.length > 0) {
    ctx.addIssue({
      code: 'custom',
      path: ['WEBHOOK_ALLOWED_IPS'],
      message: `${config.WEBHOOK_ALLOWED_IPS.wide.join(', ')} ${config.WEBHOOK_ALLOWED_IPS.wide.length > 1 ? 'reach' : 'reaches'} past one /24 (/64 for IPv6); the provider publishes four /24 ranges (leave it unset for them)`,
    });
  }
  if (config.WEBHOOK_ALLOWED_IPS.local.length > 0 && config.WEBHOOK_ALLOWED_IPS_ALLOW_PRIVATE !== 'true') {
    ctx.addIssue({
      code: 'custom',
      path: ['WEBHOOK_ALLOWED_IPS'],
      message:
        `${config.WEBHOOK_ALLOWED_IPS.local.join(', ')} ${config.WEBHOOK_ALLOWED_IPS.local.length > 1 ? 'are' : 'is'} private or loopback: the card provider posts from public addresses (leave it unset for its ranges), ` +
        'or set WEBHOOK_ALLOWED_IPS_ALLOW_PRIVATE=true for a simulator on your own network',
    });
  }
  const proxySecret = config.WEBHOOK_PROXY_SECRET;
  const proxyProblem =
    proxySecret === undefined
      ? "is required in production: nginx's webhook location adds it, and without it any host beside nginx could post provider events"
      : (placeholderReason(proxySecret) ?? weakKeyReason(proxySecret));
  if (proxyProblem)
    ctx.addIssue({
      code: 'custom',
      path: ['WEBHOOK_PROXY_SECRET'],
      message: `${proxyProblem}; set the same value for nginx and the bff (e.g. openssl rand -hex 32)`,
    });
}
