import type { Context, Next } from 'koa';
import { sendCached } from '../routes/api/shared/respond';
import type { CachedBody, CatalogCache } from './catalog-cache';

/**
 * In front of the router: a GET for a path answered from the catalog cache before is replayed
 * without routing or parameter parsing (only successful, validated answers are remembered, and a
 * generation change forgets them all). This is what brings a cached listing close to bare Koa.
 */
export function pathCache(cache: CatalogCache) {
  return async function replayCachedPath(ctx: Context, next: Next): Promise<void> {
    if (ctx.method !== 'GET') return next();
    const hit = cache.peekPath(ctx.path);
    if (hit) return sendCached(ctx, hit);
    await next();
    const answer = ctx.state.cachedAnswer as CachedBody | undefined;
    if (answer && (ctx.status === 200 || ctx.status === 304)) cache.rememberPath(ctx.path, answer);
  };
}
