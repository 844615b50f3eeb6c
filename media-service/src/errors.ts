import type { Context, Next } from 'koa';
import type { Logger } from 'pino';

export type ErrorCode =
  | 'bad_path'
  | 'bad_parameter'
  | 'not_found'
  | 'unauthenticated'
  | 'forbidden'
  | 'token_expired'
  | 'gone'
  | 'precondition_failed'
  | 'range_not_satisfiable'
  | 'unprocessable_image'
  | 'busy'
  | 'not_ready'
  | 'storage_unavailable';

const STATUS: Record<ErrorCode, number> = {
  bad_path: 400,
  bad_parameter: 400,
  not_found: 404,
  unauthenticated: 401,
  forbidden: 403,
  token_expired: 403,
  gone: 410,
  precondition_failed: 412,
  range_not_satisfiable: 416,
  unprocessable_image: 422,
  busy: 503,
  not_ready: 503,
  storage_unavailable: 503,
};

export class MediaError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = STATUS[code];
  }
}

export const notFound = (): MediaError => new MediaError('not_found', 'No such file');

/** First in the chain: typed errors become the JSON error body; anything else a logged plain 500. */
export function errorMiddleware(logger: Logger) {
  return async (ctx: Context, next: Next): Promise<void> => {
    try {
      await next();
    } catch (err) {
      const known = err instanceof MediaError;
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
