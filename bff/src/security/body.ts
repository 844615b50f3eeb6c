import type { Context, Next } from 'koa';
import getRawBody from 'raw-body';
import { AppError, BadRequestError } from '../errors';

export interface BodyOptions {
  /** Also accept `application/x-www-form-urlencoded` (the provider's webhooks); otherwise JSON only. */
  form?: boolean;
}

/**
 * A refused body is left unread (raw-body stops at the limit, or before reading when Content-Length
 * says so), so the connection is in no state to carry another request: close it with the answer.
 * Reusing it raced the next request into a hang under load.
 */
function tooLarge(ctx: Context, limit: number): AppError {
  ctx.set('Connection', 'close');
  return new AppError('too_large', `request body too large (at most ${limit} bytes)`);
}

async function rawBody(ctx: Context, limit: number): Promise<string> {
  try {
    return await getRawBody(ctx.req, { length: ctx.get('Content-Length') || undefined, limit, encoding: 'utf8' });
  } catch (err) {
    if ((err as { type?: unknown }).type === 'entity.too.large') throw tooLarge(ctx, limit);
    // A length that does not match Content-Length, or a client that went away mid-body.
    throw new BadRequestError('request body could not be read');
  }
}

function unsupported(what: string): AppError {
  return new AppError('unsupported_media_type', what);
}

/**
 * Reads a JSON body (or, with `form`, a form-encoded one) into ctx.state.body; an empty body is `{}`.
 * Anything else is a 415 and unparsable JSON a 400. The body is never logged: on the payment routes
 * it carries passwords (card data goes to the provider only, but we do not rely on that).
 */
export function readBody(limit = 16 * 1024, options: BodyOptions = {}) {
  const types = options.form ? ['application/json', 'application/x-www-form-urlencoded'] : ['application/json'];
  return async function parse(ctx: Context, next: Next): Promise<void> {
    if (ctx.method === 'POST' || ctx.method === 'PUT' || ctx.method === 'PATCH') {
      const coding = ctx.get('Content-Encoding').trim().toLowerCase();
      if (coding !== '' && coding !== 'identity') throw unsupported('compressed request bodies are not accepted');
      const raw = await rawBody(ctx, limit);
      if (raw === '') ctx.state.body = {};
      else if (ctx.is('application/x-www-form-urlencoded') && options.form) ctx.state.body = Object.fromEntries(new URLSearchParams(raw));
      else if (!ctx.is('application/json')) throw unsupported(`the body must be ${types.join(' or ')}`);
      else {
        try {
          ctx.state.body = JSON.parse(raw) as unknown;
        } catch {
          throw new BadRequestError('body must be JSON');
        }
      }
    }
    await next();
  };
}
