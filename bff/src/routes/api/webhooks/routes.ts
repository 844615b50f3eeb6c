import type Router from '@koa/router';
import { ForbiddenError } from '../../../errors';
import { readBody } from '../../../security/body';
import type { AccountDeps } from '../members/deps';
import { parseBody, parseQuery } from '../members/parse';
import { webhookBody, webhookQuery } from './schema';
import { receiveWebhook } from './service';

/** The provider's subscription events. No signature exists: the source address is the check. */
export function webhookRoutes(router: Router, deps: AccountDeps): void {
  router.post(
    '/ccbill/webhook',
    async (ctx, next) => {
      if (!deps.settings.webhookAllowed.has(ctx.ip)) throw new ForbiddenError('source address not allowed');
      await next();
    },
    readBody(64 * 1024, { form: true }),
    async (ctx) => {
      const result = await receiveWebhook(deps, parseQuery(webhookQuery, ctx), parseBody(webhookBody, ctx));
      ctx.body = { status: result };
    },
  );
}
