import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { AppError } from '@media-site/contracts/errors';

export { AppError, notFound, type ErrorCode } from '@media-site/contracts/errors';

/** First in the chain: typed errors become the JSON error body; anything else a logged plain 500. */
export function errorMiddleware(logger: Logger) {
  return async (ctx: Context, next: Next): Promise<void> => {
    try {
      await next();
    } catch (err) {
      const known = err instanceof AppError;
      if (!known) (ctx.state.log as Logger | undefined ?? logger).error({ err }, 'unhandled error');
      if (ctx.headerSent || !ctx.writable) return;
      // Drop headers a half-built file answer may have set (ETag, Content-Disposition, ranges).
      for (const name of Object.keys(ctx.response.headers)) {
        if (name !== 'x-request-id') ctx.remove(name);
      }
      ctx.status = known ? err.status : 500;
      if (known) ctx.set(err.headers);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = {
        error: known ? { code: err.code, message: err.message } : { code: 'internal', message: 'Internal error' },
      };
    }
  };
}
