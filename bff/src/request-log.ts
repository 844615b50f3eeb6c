import type { Context, Next } from 'koa';
import { requestIdFrom } from '@media-site/contracts/request-id';
import type { AccessLog } from './access-log';

// The caller's X-Request-Id is echoed only if it is safe (contracts/request-id).
// Health probes (compose's every 10 s, nginx's /readyz) answered fine are debug lines: otherwise
// they are most of a quiet site's log. A failing probe stays at info.
const PROBES = new Set(['/healthz', '/readyz']);

export { requestIdFrom };

/** Request id (from X-Request-Id or generated, echoed back) and one JSON log line per request. */
export function requestLog(accessLog: AccessLog) {
  return async function logRequest(ctx: Context, next: Next): Promise<void> {
    const requestId = requestIdFrom(ctx.get('X-Request-Id'));
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    const started = performance.now();
    try {
      await next();
    } finally {
      accessLog.line(requestId, ctx.method, ctx.url, ctx.status, started, ctx.status < 400 && PROBES.has(ctx.path) ? 'debug' : 'info');
    }
  };
}
