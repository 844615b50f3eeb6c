import { createHash } from 'node:crypto';
import type Router from '@koa/router';
import { openApiBody } from './document';

/**
 * GET /api/openapi.json: the same bytes for everyone until the next deployment, so no catalog
 * generation applies; `no-cache` with an ETag lets a browser or tool ask again for a 304.
 */
export function openApiRoutes(router: Router): void {
  let etag: string | undefined;
  router.get('/openapi.json', (ctx) => {
    const text = openApiBody();
    etag ??= `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`;
    ctx.set('Cache-Control', 'no-cache');
    ctx.etag = etag;
    ctx.type = 'application/json';
    // koa's freshness check looks at a 2xx status only.
    ctx.status = 200;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.body = text;
  });
}
