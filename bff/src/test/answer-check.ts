import type { Context, Next } from 'koa';
import { ERROR_STATUS } from '@media-site/contracts/errors';
import { ALWAYS, errorBodySchema, type Operation } from '../routes/api/openapi/operation';
import { RESOURCES } from '../routes/api/openapi/resources';

/**
 * A middleware for tests: every /api answer that leaves the app is checked against the operation
 * the document describes for it: a success body against its answer schema (as JSON, the way it
 * travels), an error against the error body and the route's listed codes. Nothing is thrown at the
 * request (a check failing inside it would become a 500): the problems are collected for the test.
 */
export function answerCheck() {
  const operations = RESOURCES.flatMap((r) => r.operations);
  const matchers = operations.map((op) => ({
    op,
    pattern: new RegExp(`^${op.path.replace(/\./g, '\\.').replace(/:\w+/g, '[^/]+')}$`),
  }));
  const problems: string[] = [];
  const seen = new Set<Operation>();

  function check(ctx: Context): void {
    const method = ctx.method === 'HEAD' ? 'get' : ctx.method.toLowerCase();
    const op = matchers.find((m) => m.op.method === method && m.pattern.test(ctx.path))?.op;
    if (!op) return;
    const where = `${ctx.method} ${ctx.path} ${ctx.status}`;
    // Replayed catalog answers are written by hand (contract.test.ts checks those); streams are not JSON.
    if (ctx.respond === false || ctx.status === 304) return;
    const body: unknown = ctx.body === undefined || ctx.body === null ? undefined : ctx.body;
    if (ctx.status >= 400) {
      const parsed = errorBodySchema.safeParse(body);
      if (!parsed.success) problems.push(`${where}: not the error body`);
      else if (![...op.errors, ...ALWAYS].includes(parsed.data.error.code)) problems.push(`${where}: ${parsed.data.error.code} not listed`);
      else if (ERROR_STATUS[parsed.data.error.code] !== ctx.status) problems.push(`${where}: status of ${parsed.data.error.code}`);
      return;
    }
    seen.add(op);
    const answer = op.answers[ctx.status as keyof Operation['answers']];
    if (answer === undefined) {
      problems.push(`${where}: status not described`);
    } else if (answer === null) {
      if (body !== undefined) problems.push(`${where}: a body where none is described`);
    } else if (!('mediaType' in answer) && typeof body === 'object') {
      const parsed = answer.safeParse(JSON.parse(JSON.stringify(body)));
      if (!parsed.success) problems.push(`${where}: ${JSON.stringify(parsed.error.issues.slice(0, 3))}`);
    }
  }

  return {
    problems,
    /** The operations answered with a success at least once: `METHOD path`. */
    answered: () => [...seen].map((op) => `${op.method.toUpperCase()} ${op.path}`),
    all: () => operations.map((op) => `${op.method.toUpperCase()} ${op.path}`),
    async middleware(ctx: Context, next: Next): Promise<void> {
      try {
        await next();
      } finally {
        check(ctx);
      }
    },
  };
}
