import type { Context, Next } from 'koa';
import type { Logger } from 'pino';

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequestError extends AppError {
  constructor(message: string) {
    super(400, 'bad_request', message);
  }
}
export class UnauthorizedError extends AppError {
  constructor(message = 'sign in required') {
    super(401, 'unauthorized', message);
  }
}
export class ForbiddenError extends AppError {
  constructor(message = 'not allowed') {
    super(403, 'forbidden', message);
  }
}
export class NotFoundError extends AppError {
  constructor(message = 'not found') {
    super(404, 'not_found', message);
  }
}
export class ConflictError extends AppError {
  constructor(message: string) {
    super(409, 'conflict', message);
  }
}
export class PaymentRefusedError extends AppError {
  constructor(message: string) {
    super(422, 'payment_refused', message);
  }
}
export class RateLimitedError extends AppError {
  constructor(message = 'too many requests') {
    super(429, 'rate_limited', message);
  }
}
export class UnavailableError extends AppError {
  constructor(message = 'a dependency is unavailable, try again shortly') {
    super(503, 'unavailable', message);
  }
}

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
    const code = e.status === 404 ? 'not_found' : e.status === 405 ? 'method_not_allowed' : 'bad_request';
    return new AppError(e.status, code, String(e.message));
  }
  return undefined;
}

export function sendError(ctx: Context, status: number, code: string, message: string): void {
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
      } else {
        logger.error({ reqId, err }, 'unhandled error');
        sendError(ctx, 500, 'internal', 'internal error');
      }
    }
  };
}
