import { z } from 'zod';
import { DEV_TOKEN_KEYS, parseKeyRing } from '@media-site/media-service/token';
import { CCBILL_WEBHOOK_RANGES, parseAddressList } from './address-list';

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

/** Sessions, media tokens, request guards. Defaults are for local use; see bff/README.md. */
export const securityConfigShape = {
  NODE_ENV: z.string().default('development'),
  MEDIA_TOKEN_KEYS: z
    .string()
    .default(DEV_TOKEN_KEYS)
    .transform((spec, ctx) => {
      try {
        return { spec, ring: parseKeyRing(spec) };
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
        return z.NEVER;
      }
    }),
  /** The media session cookie's life; revocation reaches sessions within this time. */
  MEDIA_TOKEN_TTL_SECONDS: int(300, 30, 3600),
  DOWNLOAD_LINK_TTL_HOURS: int(48, 24, 24 * 14),
  SESSION_TTL_HOURS: int(24 * 30, 1, 24 * 365),
  /** Peers whose X-Forwarded-For / X-Forwarded-Proto are believed (the front door). */
  TRUSTED_PROXIES: addressList('127.0.0.1,::1'),
  WEBHOOK_ALLOWED_IPS: addressList(CCBILL_WEBHOOK_RANGES),
  /** Extra origins allowed to POST (the site's own host is always allowed). */
  ALLOWED_ORIGINS: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((o) => o.trim().replace(/\/$/, '')).filter(Boolean)),
  RATE_LIMIT_LOGIN_PER_MINUTE: int(10, 1, 100_000),
  RATE_LIMIT_PAYMENT_PER_MINUTE: int(20, 1, 100_000),
};

interface ProductionView {
  NODE_ENV: string;
  MEDIA_TOKEN_KEYS: { spec: string };
  CCBILL_FRONTEND_SECRET: string;
  CCBILL_BACKEND_SECRET: string;
}

/** Local-only defaults must not reach production. */
export function refuseLocalDefaultsInProduction(config: ProductionView, ctx: z.RefinementCtx): void {
  if (config.NODE_ENV !== 'production') return;
  if (config.MEDIA_TOKEN_KEYS.spec === DEV_TOKEN_KEYS) ctx.addIssue({ code: 'custom', path: ['MEDIA_TOKEN_KEYS'], message: 'set real keys in production' });
  for (const key of ['CCBILL_FRONTEND_SECRET', 'CCBILL_BACKEND_SECRET'] as const) {
    if (config[key].endsWith('-local-only')) ctx.addIssue({ code: 'custom', path: [key], message: 'set the provider credentials in production' });
  }
}
