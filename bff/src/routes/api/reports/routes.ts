import type Router from '@koa/router';
import type { Context } from 'koa';
import { BadRequestError } from '../../../errors';
import { enforceRateLimit } from '../../../security/rate-limit';
import { addressBlock } from '../../../security/client-address';
import type { AccountDeps } from '../../../account/deps';
import { parseBody } from '../shared/parse';
import { formGuards } from '../shared/guards';
import { appealBody, referenceParam, reportBody } from './schema';
import { reportStatus, submitAppeal, submitReport } from './service';

// Reports are free text from anyone: a few per minute per address is plenty for a person.
export const REPORTS_PER_MINUTE = 5;
// Looking a reference up is harmless, and 50 random bits are not found by 30 guesses a minute.
const LOOKUPS_PER_MINUTE = 30;

function reference(value: string | undefined): string {
  const parsed = referenceParam.safeParse(value);
  if (!parsed.success) throw new BadRequestError(parsed.error.issues[0]?.message ?? 'bad reference');
  return parsed.data;
}

/** The /contact report form and the appeal form (docs/compliance.md). */
export function reportRoutes(router: Router, deps: AccountDeps): void {
  // The per-address limit counts before the body is read or validated: a refused call costs nothing more.
  const guard = (what: string) => formGuards(deps, { what, perMinute: REPORTS_PER_MINUTE }, 8 * 1024);
  const limit = (ctx: Context, what: string, perMinute: number) =>
    enforceRateLimit(deps.limiter, `${what}:${addressBlock(ctx.ip)}`, perMinute);
  router
    .post('/reports', ...guard('report'), async (ctx) => {
      const body = parseBody(reportBody, ctx);
      ctx.set('Cache-Control', 'no-store');
      ctx.status = 201;
      ctx.body = await submitReport(deps, body);
    })
    .get('/reports/:reference', async (ctx) => {
      const ref = reference(ctx.params.reference);
      await limit(ctx, 'report-lookup', LOOKUPS_PER_MINUTE);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await reportStatus(deps, ref);
    })
    .post('/reports/:reference/appeal', ...guard('appeal'), async (ctx) => {
      const ref = reference(ctx.params.reference);
      const body = parseBody(appealBody, ctx);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await submitAppeal(deps, ref, body);
    });
}
