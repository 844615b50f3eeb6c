import { z } from 'zod';
import { DEV_SIGNIN_KEYS, GENERATE_SECRET, keyRingProblems, nodeEnvSchema, placeholderReason, weakKeyReason } from '@media-site/contracts/secret-policy';
import { DEV_TOKEN_KEYS, parseKeyRing, type KeyRing } from '@media-site/contracts/token';
import { CCBILL_WEBHOOK_RANGES, parseAddressList, type AddressList } from './address-list';
import { originOf } from './origin';

const int = (def: number, min: number, max: number) => z.coerce.number().int().min(min).max(max).default(def);

const addressList = (def: string) =>
  z
    .string()
    .default(def)
    .transform((spec, ctx) => {
      try {
        return parseAddressList(spec);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
        return z.NEVER;
      }
    });

/** "kid:secret,kid2:secret2": the spec (for the production checks) and the parsed ring. */
const keyRing = (def: string) =>
  z
    .string()
    .default(def)
    .transform((spec, ctx) => {
      try {
        return { spec, ring: parseKeyRing(spec) };
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
        return z.NEVER;
      }
    });

/** Sessions, media tokens, request guards. Defaults are for local use; see bff/README.md. */
export const securityConfigShape = {
  NODE_ENV: nodeEnvSchema,
  MEDIA_TOKEN_KEYS: keyRing(DEV_TOKEN_KEYS),
  /**
   * Sign-in secrets (device cookies, each under a key derived per purpose), a ring of their own: the
   * media keys are shared with the media service, these stay in the bff.
   */
  SIGNIN_KEYS: keyRing(DEV_SIGNIN_KEYS),
  /** The media session cookie's life; revocation reaches sessions within this time. */
  MEDIA_TOKEN_TTL_SECONDS: int(300, 30, 3600),
  DOWNLOAD_LINK_TTL_HOURS: int(48, 24, 24 * 14),
  /** Edge URLs a CDN verifies (media-service EDGE_URL_SECRET, nginx secure_link); unset or empty: none issued. */
  EDGE_URL_SECRET: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(16).optional()),
  /**
   * An edge URL is checked at a CDN's edge, which cannot know a member was revoked or signed out
   * everywhere, and a CDN's cached copy answers it without asking the origin: so it is short (the
   * origin refuses it after the member's valid-from time, docs/security.md).
   */
  EDGE_URL_TTL_SECONDS: int(300, 60, 48 * 3600),
  /** Where edge URLs point (the CDN's origin, e.g. https://cdn.example.com); empty: site-relative. */
  EDGE_BASE_URL: z.preprocess((v) => (v === '' ? undefined : v), z.url().optional()),
  SESSION_TTL_HOURS: int(24 * 30, 1, 24 * 365),
  /** Peers whose X-Forwarded-For / X-Forwarded-Proto are believed (the front door). */
  TRUSTED_PROXIES: addressList('127.0.0.1,::1'),
  /** Production refuses TRUSTED_PROXIES entries wider than one /24 (/64) unless this is true. */
  TRUSTED_PROXIES_ALLOW_WIDE: z.enum(['true', 'false']).default('false'),
  WEBHOOK_ALLOWED_IPS: addressList(CCBILL_WEBHOOK_RANGES),
  /** Production refuses private and loopback WEBHOOK_ALLOWED_IPS entries unless this is true (the demo's simulator). */
  WEBHOOK_ALLOWED_IPS_ALLOW_PRIVATE: z.enum(['true', 'false']).default('false'),
  /**
   * What nginx's webhook location (and only it) adds as X-Webhook-Proxy-Secret: proof a delivery
   * passed the front door's allow-list, which X-Forwarded-For from any host beside nginx is not.
   * Unset (development, tests): the source address alone. Production requires it.
   */
  WEBHOOK_PROXY_SECRET: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .min(16)
      // nginx's config quotes it: no quote, space or "$" (a variable there).
      .regex(/^[\w+/=.-]+$/, 'letters, digits and + / = . _ - only (nginx writes it into its config); e.g. openssl rand -hex 32')
      .optional(),
  ),
  /** Extra origins allowed to POST (the site's own origin always is): scheme, host and port. */
  ALLOWED_ORIGINS: z
    .string()
    .default('')
    .transform((v, ctx) =>
      v
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean)
        .map((o) => {
          const origin = originOf(o);
          if (origin) return origin;
          ctx.addIssue({ code: 'custom', message: `"${o}" is not an origin such as https://example.com:8443` });
          return z.NEVER;
        }),
    ),
  RATE_LIMIT_LOGIN_PER_MINUTE: int(10, 1, 100_000),
  RATE_LIMIT_PAYMENT_PER_MINUTE: int(20, 1, 100_000),
};

interface ProductionView {
  MEDIA_TOKEN_KEYS: { spec: string; ring: KeyRing };
  SIGNIN_KEYS: { spec: string; ring: KeyRing };
  TRUSTED_PROXIES: AddressList;
  TRUSTED_PROXIES_ALLOW_WIDE: 'true' | 'false';
  WEBHOOK_ALLOWED_IPS: AddressList;
  WEBHOOK_ALLOWED_IPS_ALLOW_PRIVATE: 'true' | 'false';
  WEBHOOK_PROXY_SECRET?: string | undefined;
}

/** Production: real media keys, and only the front door's own address believed. Run on a production config only. */
export function refuseLocalSecurityInProduction(config: ProductionView, ctx: z.RefinementCtx): void {
  for (const problem of keyRingProblems(config.MEDIA_TOKEN_KEYS.spec)) ctx.addIssue({ code: 'custom', path: ['MEDIA_TOKEN_KEYS'], message: problem });
  for (const problem of keyRingProblems(config.SIGNIN_KEYS.spec, DEV_SIGNIN_KEYS)) ctx.addIssue({ code: 'custom', path: ['SIGNIN_KEYS'], message: problem });
  // The media service holds the media keys too: a sign-in key equal to one would be known there.
  const mediaSecrets = [...config.MEDIA_TOKEN_KEYS.ring.byId.values()];
  for (const [kid, secret] of config.SIGNIN_KEYS.ring.byId) {
    if (mediaSecrets.some((media) => media.equals(secret))) {
      ctx.addIssue({ code: 'custom', path: ['SIGNIN_KEYS'], message: `key "${kid}" is also a MEDIA_TOKEN_KEYS secret; sign-in needs its own: ${GENERATE_SECRET}` });
    }
  }
  if (config.TRUSTED_PROXIES.wide.length > 0 && config.TRUSTED_PROXIES_ALLOW_WIDE !== 'true') {
    ctx.addIssue({
      code: 'custom',
      path: ['TRUSTED_PROXIES'],
      message:
        `${config.TRUSTED_PROXIES.wide.join(', ')} ${config.TRUSTED_PROXIES.wide.length > 1 ? 'reach' : 'reaches'} past one /24 (/64 for IPv6): every host in it could claim any client address and forge provider webhooks. ` +
        'List the address of the proxy in front of the bff (the nginx container\'s fixed address), or set TRUSTED_PROXIES_ALLOW_WIDE=true if every host in the range is a proxy you run',
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
  const proxyProblem = proxySecret === undefined ? 'is required in production: nginx\'s webhook location adds it, and without it any host beside nginx could post provider events' : (placeholderReason(proxySecret) ?? weakKeyReason(proxySecret));
  if (proxyProblem) ctx.addIssue({ code: 'custom', path: ['WEBHOOK_PROXY_SECRET'], message: `${proxyProblem}; set the same value for nginx and the bff (e.g. openssl rand -hex 32)` });
}
