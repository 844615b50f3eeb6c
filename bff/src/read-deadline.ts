import type { Context, Next } from 'koa';
import { UnavailableError } from './errors';

/**
 * Reads (GET/HEAD under /api, and /readyz) answer 503 once `ms` pass. The pool's acquire timeout
 * covers a database that refuses connections; this covers one that accepts and then never answers
 * (frozen, partitioned), where a query on a connection already held would otherwise hang. The
 * abandoned handler finishes or fails on its own; its late result is dropped. Payments are POSTs
 * and keep their provider timeouts.
 */
export function readDeadline(ms: number) {
  return async function deadline(ctx: Context, next: Next): Promise<void> {
    const isRead = ctx.method === 'GET' || ctx.method === 'HEAD';
    if (!isRead || ms <= 0 || !(ctx.path.startsWith('/api/') || ctx.path === '/readyz')) return next();
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new UnavailableError('the catalog database did not answer in time, try again shortly')), ms);
    });
    try {
      await Promise.race([next(), expired]);
    } finally {
      clearTimeout(timer);
    }
  };
}
