import type { Context } from 'koa';
import type { z } from 'zod';
import { BadRequestError } from '../../../errors';

function firstProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'invalid input';
}

/** The JSON body through its schema; a bad body is a 400 naming the first problem (never echoing values). */
export function parseBody<S extends z.ZodType>(schema: S, ctx: Context): z.infer<S> {
  const parsed = schema.safeParse(ctx.state.body ?? {});
  if (!parsed.success) throw new BadRequestError(firstProblem(parsed.error));
  return parsed.data;
}

export function parseQuery<S extends z.ZodType>(schema: S, ctx: Context): z.infer<S> {
  const parsed = schema.safeParse(ctx.query);
  if (!parsed.success) throw new BadRequestError(firstProblem(parsed.error));
  return parsed.data;
}
