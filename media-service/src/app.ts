import { access, constants } from 'node:fs/promises';
import Koa from 'koa';
import type { Context, Middleware, Next } from 'koa';
import type { Logger } from 'pino';
import { requestIdFrom } from '@media-site/contracts/request-id';
import { AppError, errorMiddleware } from './errors';
import { membersHandler, type MembersDeps } from './members/handler';

export interface AppDeps extends MembersDeps {
  logger: Logger;
  /** Request metrics (see metrics.ts), when METRICS_PORT is set. */
  observe?: Middleware;
}

// Health probes answered fine (compose's every 10 s, nginx's /readyz) are debug lines, so they do
// not fill a quiet site's log; a failing probe stays at info.
const PROBES = new Set(['/healthz', '/readyz']);

function requestLog(logger: Logger) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const id = requestIdFrom(ctx.get('X-Request-Id'));
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

/**
 * Ready: MEDIA_ROOT readable, and the takedown and revocation lists loaded and not older than
 * their limit. Each list's age is reported either way.
 */
export async function readiness(deps: AppDeps): Promise<{ ready: boolean; body: Record<string, unknown> }> {
  const mediaRoot = await access(deps.realRoot, constants.R_OK).then(
    () => 'readable' as const,
    () => 'unreadable' as const,
  );
  const lists = { takedowns: deps.takedowns.state(), revocations: deps.revocations.state() };
  const problems = mediaRoot === 'readable' ? [] : ['MEDIA_ROOT is not readable'];
  for (const [name, list] of Object.entries(lists)) {
    if (!list.loaded) problems.push(`the ${name} list has not loaded yet`);
    else if (list.ageSeconds !== null && list.maxAgeSeconds !== null && list.ageSeconds > list.maxAgeSeconds) {
      problems.push(`the ${name} list is ${list.ageSeconds} s old (limit ${list.maxAgeSeconds} s)`);
    }
  }
  // STORAGE=s3: reported, not a readiness condition. The bucket is shared by every replica, so
  // failing here would take every replica out of nginx at once (bare 502s); every family answers
  // 503 storage_unavailable with Retry-After meanwhile.
  const storage = deps.originals ? { storage: { kind: 's3', reachable: await deps.originals.reachable() } } : {};
  if (problems.length === 0) return { ready: true, body: { status: 'ready', mediaRoot, lists, ...storage } };
  const code = mediaRoot === 'readable' ? 'not_ready' : 'media_root_unreadable';
  return { ready: false, body: { status: 'unavailable', error: { code, message: problems.join('; ') }, mediaRoot, lists, ...storage } };
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
      const { ready, body } = await readiness(deps);
      ctx.status = ready ? 200 : 503;
      ctx.set('Cache-Control', 'no-store');
      ctx.body = body;
    } else if (ctx.path.startsWith('/members/') || ctx.path.startsWith('/edge/members/')) {
      await members(ctx);
    } else {
      throw new AppError('not_found', 'Not found');
    }
  });
  return app;
}
