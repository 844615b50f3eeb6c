import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { AppError, UnavailableError, type ErrorCode } from '@media-site/contracts/errors';

export {
  AppError,
  BadRequestError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  PaymentRefusedError,
  RateLimitedError,
  UnauthenticatedError,
  UnavailableError,
} from '@media-site/contracts/errors';

// Driver error codes meaning "the database could not be reached", as opposed to a bad query.
const DB_DOWN_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EPIPE',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'SQLITE_BUSY',
]);

export function isDatabaseDown(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  // knex's pool gives up after acquireConnectionTimeout; the class is not importable as a value under ESM.
  if (err.name === 'KnexTimeoutError') return true;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && DB_DOWN_CODES.has(code);
}

function toAppError(err: unknown): AppError | undefined {
  if (err instanceof AppError) return err;
  if (isDatabaseDown(err)) return new UnavailableError('the catalog database is unavailable, try again shortly');
  // Errors koa itself raises (malformed request, body too large) carry an exposable 4xx status.
  const e = err as { status?: unknown; expose?: unknown; message?: unknown };
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500 && e.expose === true) {
    const code: ErrorCode = e.status === 404 ? 'not_found' : e.status === 405 ? 'method_not_allowed' : e.status === 413 ? 'too_large' : e.status === 415 ? 'unsupported_media_type' : 'bad_request';
    return new AppError(code, String(e.message));
  }
  return undefined;
}

export function sendError(ctx: Context, status: number, code: ErrorCode, message: string): void {
  ctx.status = status;
  ctx.body = { error: { code, message } };
}

/** First in the chain: typed errors become the JSON error body; anything else a plain 500, logged. */
export function errorMiddleware(logger: Logger) {
  return async function handleErrors(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
    } catch (err) {
      const known = toAppError(err);
      const reqId = ctx.state.requestId as string | undefined;
      if (known) {
        if (known.status >= 500) logger.warn({ reqId, err }, known.message);
        sendError(ctx, known.status, known.code, known.message);
        // Retry-After on a 503 (a full hashing queue), and whatever else the error says it needs.
        for (const [name, value] of Object.entries(known.headers)) ctx.set(name, value);
      } else {
        logger.error({ reqId, err }, 'unhandled error');
        sendError(ctx, 500, 'internal', 'internal error');
      }
    }
  };
}
