import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { asAppError, writeError } from '@media-site/contracts/errors';

export { AppError, notFound, type ErrorCode } from '@media-site/contracts/errors';

/** First in the chain: typed errors become the JSON error body; anything else a logged plain 500. */
export function errorMiddleware(logger: Logger) {
  return async (ctx: Context, next: Next): Promise<void> => {
    try {
      await next();
    } catch (err) {
      const known = asAppError(err);
      if (!known) ((ctx.state.log as Logger | undefined) ?? logger).error({ err }, 'unhandled error');
      // Drop headers a half-built file answer may have set (ETag, Content-Disposition, ranges).
      if (!ctx.headerSent) {
        for (const name of Object.keys(ctx.response.headers)) {
          if (name !== 'x-request-id') ctx.remove(name);
        }
      }
      if (writeError(ctx, known)) ctx.set('Cache-Control', 'no-store');
    }
  };
}
