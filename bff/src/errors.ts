import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { UnavailableError, asAppError, errorBody, writeError, type AppError, type ErrorCode } from '@media-site/contracts/errors';

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
  if (isDatabaseDown(err)) return new UnavailableError('the catalog database is unavailable, try again shortly');
  return asAppError(err);
}

export function sendError(ctx: Context, status: number, code: ErrorCode, message: string): void {
  ctx.status = status;
  ctx.body = errorBody(code, message);
}

/** First in the chain: typed errors become the JSON error body; anything else a plain 500, logged. */
export function errorMiddleware(logger: Logger) {
  return async function handleErrors(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
    } catch (err) {
      const known = toAppError(err);
      const reqId = ctx.state.requestId as string | undefined;
      if (!known) logger.error({ reqId, err }, 'unhandled error');
      else if (known.status >= 500) logger.warn({ reqId, err }, known.message);
      // With Retry-After on a 503 (a full hashing queue), and whatever else the error says it needs.
      writeError(ctx, known);
    }
  };
}
