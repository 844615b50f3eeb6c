import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';

// A caller's id is echoed only if it is short and printable, so it cannot forge log lines.
const SAFE_ID = /^[A-Za-z0-9._:-]{1,100}$/;

/** Request id (from X-Request-Id or generated, echoed back) and one JSON log line per request. */
export function requestLog(logger: Logger) {
  return async function logRequest(ctx: Context, next: Next): Promise<void> {
    const given = ctx.get('X-Request-Id');
    const requestId = SAFE_ID.test(given) ? given : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    const started = performance.now();
    try {
      await next();
    } finally {
      if (logger.isLevelEnabled('info')) {
        logger.info(
          { reqId: requestId, method: ctx.method, url: ctx.url, status: ctx.status, ms: Math.round((performance.now() - started) * 10) / 10 },
          'request',
        );
      }
    }
  };
}
