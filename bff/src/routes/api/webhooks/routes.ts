import type Router from '@koa/router';
import { ForbiddenError } from '../../../errors';
import { readBody } from '../../../security/body';
import type { AccountDeps } from '../../../account/deps';
import { parseBody, parseQuery } from '../shared/parse';
import { isProxySecret, WEBHOOK_PROXY_HEADER } from './proxy-secret';
import { webhookBody, webhookQuery } from './schema';
import { receiveWebhook } from './service';
import type { WebhookReceipt } from '@media-site/contracts/member-api';

/**
 * The provider's subscription events. No signature exists: the source address is the check, made by
 * nginx's webhook location, which vouches for it with WEBHOOK_PROXY_SECRET (./proxy-secret.ts).
 */
export function webhookRoutes(router: Router, deps: AccountDeps): void {
  router.post(
    '/ccbill/webhook',
    async (ctx, next) => {
      if (!deps.settings.webhookAllowed.has(ctx.ip)) throw new ForbiddenError('source address not allowed');
      const proxySecret = deps.settings.webhookProxySecret;
      if (proxySecret !== undefined && !isProxySecret(proxySecret, ctx.get(WEBHOOK_PROXY_HEADER) || undefined)) {
        throw new ForbiddenError('webhooks are accepted through the front door only');
      }
      await next();
    },
    readBody(64 * 1024, { form: true }),
    async (ctx) => {
      const result = await receiveWebhook(deps, parseQuery(webhookQuery, ctx), parseBody(webhookBody, ctx));
      ctx.body = { status: result } satisfies WebhookReceipt;
    },
  );
}
