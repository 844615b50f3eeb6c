import type Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { unsubscribeByToken } from '@media-site/db/mail';
import type { MessageAnswer } from '@media-site/contracts/member-api';
import type { AccountDeps } from '../../../account/deps';
import { BadRequestError, NotFoundError } from '../../../errors';
import { limitPerAddress } from '../../../security/address-limit';
import { readBody } from '../../../security/body';
import { LINK_TOKEN } from '../password-reset/tokens';

/** Unsubscribe calls per address a minute: a mail provider's one-click POSTs come from few addresses, so generous. */
export const UNSUBSCRIBES_PER_MINUTE = 60;
/** `List-Unsubscribe=One-Click` and a little slack. */
const BODY_BYTES = 200;

export const unsubscribeQuery = z.strictObject({
  token: z.string().regex(LINK_TOKEN, "must be the 43-character token of the mail's link"),
});
export const unsubscribeBody = z.object({
  'List-Unsubscribe': z.literal('One-Click', { error: 'must be One-Click (RFC 8058)' }),
});

function tokenOf(ctx: Context): string {
  const parsed = unsubscribeQuery.safeParse(ctx.query);
  if (!parsed.success) throw new BadRequestError(`token: ${parsed.error.issues[0]?.message ?? 'missing'}`);
  return parsed.data.token;
}

/**
 * A release mail's unsubscribe link (RFC 8058). Mail providers POST `List-Unsubscribe=One-Click` to
 * the List-Unsubscribe address, from their own servers, with no cookie and no Origin of ours: the
 * token is the whole credential (256 bits, only its SHA-256 stored), so no session or origin check.
 * The SPA's /unsubscribe page posts the same. A GET (a mail app that opens the address in a browser,
 * a link scanner) changes nothing: it is sent to that page, which asks for the click.
 */
export function mailRoutes(router: Router, deps: AccountDeps): void {
  router
    .get('/mail/unsubscribe', (ctx) => {
      const token = tokenOf(ctx);
      ctx.set('Cache-Control', 'no-store');
      ctx.set('Referrer-Policy', 'no-referrer');
      ctx.status = 303;
      ctx.set('Location', `/unsubscribe#token=${token}`);
    })
    .post(
      '/mail/unsubscribe',
      limitPerAddress(deps.limiter, 'unsubscribe:ip', UNSUBSCRIBES_PER_MINUTE),
      readBody(BODY_BYTES, { form: true }),
      async (ctx) => {
        ctx.set('Cache-Control', 'no-store');
        const token = tokenOf(ctx);
        const body = unsubscribeBody.safeParse(ctx.state.body);
        if (!body.success) throw new BadRequestError('the body must be List-Unsubscribe=One-Click (RFC 8058)');
        const username = await unsubscribeByToken(deps.knex, token);
        if (username === undefined)
          throw new NotFoundError(
            'this unsubscribe link is not known (or is over a year old); switch release mails off on your account page',
          );
        ctx.body = {
          message: `Release mails are off for ${username}. You can switch them on again on your account page.`,
        } satisfies MessageAnswer;
      },
    );
}
