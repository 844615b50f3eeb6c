import type Router from '@koa/router';
import type { Context } from 'koa';
import { pricesBody, vodPriceBody, type PricesAnswer, type VodPriceAnswer } from '@media-site/contracts/admin-prices';
import { offerTerms } from '@media-site/contracts/membership-offer';
import { currentOffer, currentVodPrice, setOffer, setVodPrice, type OfferInForce } from '@media-site/db/payments';
import type { AccountDeps } from '../../../account/deps';
import { readBody } from '../../../security/body';
import { enforceRateLimit } from '../../../security/rate-limit';
import { parseBody } from '../shared/parse';
import { requireAdmin, requireConfirmed, signedInAdmin } from './session';

// What new members are charged, from the console: the price, the period and a trial. The same db
// service the payment routes charge from (payments/offers.ts): it checks the offer, inserts it and
// audits `prices.set` in one transaction. Members who joined before keep the terms they were sold on.

type Guard = (ctx: Context, next: () => Promise<unknown>) => Promise<void>;

/** An owner adjusting prices saves a few times; a session used to flood the audit log is stopped. */
export const PRICE_CHANGES_PER_HOUR = 30;

/** GET /api/admin/prices and /prices/vod (whoever may see payments: owner, support), PUT (owner only, confirmed). */
export function adminPriceRoutes(router: Router, deps: AccountDeps, origin: Guard): void {
  const { price, periodDays, rebills } = deps.settings.membership;
  const defaults = { price, periodDays };
  const answer = ({ setBy, setAt, ...offer }: OfferInForce): PricesAnswer => ({
    offer: { price: offer.price, periodDays: offer.periodDays, trial: offer.trial },
    setBy,
    setAt,
    defaults,
    renews: rebills > 0,
    terms: offerTerms(offer, rebills > 0),
  });
  router
    .get('/admin/prices', origin, requireAdmin(deps, 'payments'), async (ctx) => {
      ctx.body = answer(await currentOffer(deps.knex, defaults));
    })
    .put('/admin/prices', origin, requireAdmin(deps, 'prices'), requireConfirmed(deps), readBody(), async (ctx) => {
      const admin = signedInAdmin(ctx);
      await enforceRateLimit(
        deps.limiter,
        `admin-prices:${admin.name}`,
        PRICE_CHANGES_PER_HOUR,
        3600,
        'too many price changes: wait an hour',
      );
      const offer = parseBody(pricesBody, ctx);
      ctx.body = answer(await setOffer(deps.knex, offer, defaults, { actor: admin.name, address: ctx.ip, now: deps.now() }));
    })
    // The default VOD price: what the ingest gives a new VOD whose meta.json names no price.
    .get('/admin/prices/vod', origin, requireAdmin(deps, 'payments'), async (ctx) => {
      ctx.body = (await currentVodPrice(deps.knex)) satisfies VodPriceAnswer;
    })
    .put('/admin/prices/vod', origin, requireAdmin(deps, 'prices'), requireConfirmed(deps), readBody(), async (ctx) => {
      const admin = signedInAdmin(ctx);
      await enforceRateLimit(
        deps.limiter,
        `admin-prices:${admin.name}`,
        PRICE_CHANGES_PER_HOUR,
        3600,
        'too many price changes: wait an hour',
      );
      const { price } = parseBody(vodPriceBody, ctx);
      ctx.body = (await setVodPrice(deps.knex, price, { actor: admin.name, address: ctx.ip, now: deps.now() })) satisfies VodPriceAnswer;
    });
}
