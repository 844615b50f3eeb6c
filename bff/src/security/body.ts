import type { Context, Next } from 'koa';
import { AppError, BadRequestError } from '../errors';

/**
 * A refused body is left unread (leaving the loop below destroys the request stream), so the
 * connection is in no state to carry another request: close it with the answer. Reusing it raced
 * the next request into a hang under load.
 */
function tooLarge(ctx: Context, limit: number): AppError {
  ctx.set('Connection', 'close');
  return new AppError(413, 'too_large', `request body too large (at most ${limit} bytes)`);
}

async function rawBody(ctx: Context, limit: number): Promise<string> {
  if (Number(ctx.get('Content-Length') || 0) > limit) throw tooLarge(ctx, limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw tooLarge(ctx, limit);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Reads a JSON or form-encoded body into ctx.state.body. The body is never logged: on the payment
 * routes it carries passwords (card data goes to the provider only, but we do not rely on that).
 */
export function readBody(limit = 16 * 1024) {
  return async function parse(ctx: Context, next: Next): Promise<void> {
    if (ctx.method === 'POST' || ctx.method === 'PUT' || ctx.method === 'PATCH') {
      const raw = await rawBody(ctx, limit);
      const type = ctx.get('Content-Type').split(';')[0]?.trim().toLowerCase() ?? '';
      if (raw === '') ctx.state.body = {};
      else if (type === 'application/x-www-form-urlencoded') ctx.state.body = Object.fromEntries(new URLSearchParams(raw));
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
