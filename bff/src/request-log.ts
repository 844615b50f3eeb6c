import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { AccessLog } from './access-log';

// A caller's id is echoed only if it is short and printable, so it cannot forge log lines.
// Health probes (compose's every 10 s, nginx's /readyz) answered fine are debug lines: otherwise
// they are most of a quiet site's log. A failing probe stays at info.
const SAFE_ID = /^[A-Za-z0-9._:-]{1,100}$/;
const PROBES = new Set(['/healthz', '/readyz']);

/** The caller's X-Request-Id when it is safe to echo, else a new one. */
export function requestIdFrom(given: string | string[] | undefined): string {
  return typeof given === 'string' && SAFE_ID.test(given) ? given : randomUUID();
}

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
