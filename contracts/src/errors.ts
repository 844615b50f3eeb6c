/**
 * The one error vocabulary of every service: a code, its HTTP status, and one class. The bff, the
 * media service and the db's rule errors all throw `AppError`; each service's error middleware
 * turns it into `{ "error": { "code", "message" } }` with this status.
 */
export const ERROR_STATUS = {
  bad_request: 400,
  bad_path: 400,
  bad_parameter: 400,
  unauthenticated: 401,
  forbidden: 403,
  token_expired: 403,
  /** A sign-in past its username's budget: solve a proof of work (GET /api/login-challenge) and resend. */
  challenge_required: 403,
  /** A sensitive console change: confirm with a fresh TOTP code or passkey (POST /api/admin/confirm/...) and resend. */
  confirm_required: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  gone: 410,
  precondition_failed: 412,
  too_large: 413,
  unsupported_media_type: 415,
  range_not_satisfiable: 416,
  payment_refused: 422,
  unprocessable_image: 422,
  rate_limited: 429,
  headers_too_large: 431,
  internal: 500,
  unavailable: 503,
  busy: 503,
  not_ready: 503,
  storage_unavailable: 503,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

/** The JSON body of every error answer. */
export interface ErrorBody {
  error: { code: ErrorCode; message: string };
}

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Headers the answer must carry (Content-Range on a 416, Retry-After on a 503). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = new.target.name;
    this.status = ERROR_STATUS[code];
  }
}

/**
 * A named shorthand for one code: `new NotFoundError()` is `new AppError('not_found', 'not found')`
 * under its own name. Without a default message the message is required.
 */
function shorthand(name: string, code: ErrorCode): new (message: string) => AppError;
function shorthand(name: string, code: ErrorCode, defaultMessage: string): new (message?: string) => AppError;
function shorthand(name: string, code: ErrorCode, defaultMessage?: string): new (message?: string) => AppError {
  // The computed key names the class, so `new.target.name` (the error's name) is `name`.
  const named = {
    [name]: class extends AppError {
      constructor(message = defaultMessage ?? '') {
        super(code, message);
      }
    },
  };
  return named[name]!;
}

// Named shorthands for the common codes; they are AppErrors, nothing more.
export const BadRequestError = shorthand('BadRequestError', 'bad_request');
export const UnauthenticatedError = shorthand('UnauthenticatedError', 'unauthenticated', 'sign in required');
export const ForbiddenError = shorthand('ForbiddenError', 'forbidden', 'not allowed');
export const NotFoundError = shorthand('NotFoundError', 'not_found', 'not found');
export const ConflictError = shorthand('ConflictError', 'conflict');
export const PaymentRefusedError = shorthand('PaymentRefusedError', 'payment_refused');
export const RateLimitedError = shorthand('RateLimitedError', 'rate_limited', 'too many requests');
export const UnavailableError = shorthand('UnavailableError', 'unavailable', 'a dependency is unavailable, try again shortly');

/** A media file (or anything else) that is not there, or may not be named to this caller. */
export const notFound = (): AppError => new AppError('not_found', 'No such file');

export const errorBody = (code: ErrorCode, message: string): ErrorBody => ({ error: { code, message } });

// An exposable 4xx raised by a framework, by status; any other is a bad_request.
const THROWN_CODES: Partial<Record<number, ErrorCode>> = {
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  413: 'too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};

/**
 * The AppError an error is answered as; undefined for one that is not ours to explain (a logged
 * 500). Besides AppErrors, the errors koa and http-errors raise with an exposable 4xx status (a
 * malformed or oversized body, `ctx.throw(401, message, { headers })`), keeping their headers
 * (WWW-Authenticate, Allow, Retry-After).
 */
export function asAppError(err: unknown): AppError | undefined {
  if (err instanceof AppError) return err;
  const e = err as { status?: unknown; expose?: unknown; message?: unknown; headers?: unknown } | null;
  if (typeof e?.status !== 'number' || e.status < 400 || e.status >= 500 || e.expose !== true) return undefined;
  const headers =
    typeof e.headers === 'object' && e.headers !== null
      ? Object.fromEntries(Object.entries(e.headers).map(([k, v]) => [k, String(v)]))
      : {};
  return new AppError(THROWN_CODES[e.status] ?? 'bad_request', String(e.message), headers);
}

/** What an error answer is written to: a koa Context is one (contracts names no server framework). */
export interface ErrorTarget {
  readonly headerSent: boolean;
  readonly writable: boolean;
  status: number;
  body: unknown;
  respond?: boolean;
  res: { destroy(): unknown };
  set(fields: Record<string, string>): void;
}

/**
 * The one error answer of every service: the status, the headers the error carries, and
 * `{ "error": { "code", "message" } }`; `undefined` is the plain 500. Once the head is sent (an
 * answer that failed mid-send) no status or body can follow: the connection is cut, so the client
 * sees a truncated answer rather than one that looks complete. Returns whether it wrote.
 */
export function writeError(ctx: ErrorTarget, err: AppError | undefined): boolean {
  if (ctx.headerSent || !ctx.writable) {
    ctx.respond = false;
    ctx.res.destroy();
    return false;
  }
  ctx.status = err ? err.status : 500;
  if (err) ctx.set({ ...err.headers });
  ctx.body = err ? errorBody(err.code, err.message) : errorBody('internal', 'Internal error');
  return true;
}
