import { randomUUID } from 'node:crypto';
import { access, constants } from 'node:fs/promises';
import Koa from 'koa';
import type { Context, Middleware, Next } from 'koa';
import type { Logger } from 'pino';
import { errorMiddleware } from './errors';
import { membersHandler, type MembersDeps } from './members';

export interface AppDeps extends MembersDeps {
  logger: Logger;
  /** Request metrics (see metrics.ts), when METRICS_PORT is set. */
  observe?: Middleware;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
// Health probes answered fine (compose's every 10 s, nginx's /readyz) are debug lines, so they do
// not fill a quiet site's log; a failing probe stays at info.
const PROBES = new Set(['/healthz', '/readyz']);

function requestLog(logger: Logger) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const given = ctx.get('X-Request-Id');
    const id = REQUEST_ID.test(given) ? given : randomUUID();
    ctx.set('X-Request-Id', id);
    const log = logger.child({ reqId: id });
    ctx.state.log = log;
    const started = performance.now();
    try {
      await next();
    } finally {
      // The path only: signed URLs carry their signature in the query string.
      const level = ctx.status < 400 && PROBES.has(ctx.path) ? 'debug' : 'info';
      log[level]({ method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(performance.now() - started) }, 'request');
    }
  };
}

export function createApp(deps: AppDeps): Koa {
  const app = new Koa();
  app.silent = true;
  const members = membersHandler(deps);
  app.use(requestLog(deps.logger));
  if (deps.observe) app.use(deps.observe);
  app.use(errorMiddleware(deps.logger));
  app.use(async (ctx) => {
    if (ctx.path === '/healthz') {
      ctx.body = { status: 'ok' };
    } else if (ctx.path === '/readyz') {
      const ready = await access(deps.realRoot, constants.R_OK).then(() => true, () => false);
      ctx.status = ready ? 200 : 503;
      ctx.body = ready ? { status: 'ready' } : { error: { code: 'media_root_unreadable', message: 'MEDIA_ROOT is not readable' } };
    } else if (ctx.path.startsWith('/members/')) {
      await members(ctx);
    } else {
      ctx.status = 404;
      ctx.body = { error: { code: 'not_found', message: 'Not found' } };
    }
  });
  return app;
}
