import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The header nginx's webhook location adds (WEBHOOK_PROXY_SECRET) after its allow-list check. A host
 * beside nginx can claim any address in X-Forwarded-For, but not this value: only deliveries that
 * passed the front door's webhook location carry it. Only the webhook route reads it; nginx sets it
 * there, replacing any copy the client sent.
 */
export const WEBHOOK_PROXY_HEADER = 'X-Webhook-Proxy-Secret';

// Both sides hashed first: equal lengths for timingSafeEqual, and no length leaks through timing.
const digest = (value: string) => createHmac('sha256', 'webhook-proxy-secret').update(value, 'utf8').digest();

/** Whether `given` (the header, absent or not) is `secret`, compared in constant time. */
export function isProxySecret(secret: string, given: string | undefined): boolean {
  return given !== undefined && given !== '' && timingSafeEqual(digest(secret), digest(given));
}
