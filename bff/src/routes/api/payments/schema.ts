import { z } from 'zod';
import { EMAIL, EMAIL_MAX, PASSWORD_MAX, PASSWORD_MIN } from '@media-site/contracts/member-rules';
import { USERNAME } from '../auth/schema';
import { stop } from '../shared/params';

const vodPath = z
  .string()
  .min(1, stop())
  .max(150, stop())
  .regex(/^[^/\\]+$/, 'a VOD folder name');
const password = z
  .string()
  .min(PASSWORD_MIN, stop(`at least ${PASSWORD_MIN} characters`))
  .max(PASSWORD_MAX, stop(`at most ${PASSWORD_MAX} characters`));

export const frontendTokenBody = z
  .object({
    /** The new member's choice; absent when a signed-in member buys a VOD (the session says who). */
    username: z.string().regex(USERNAME, '3-15 letters, digits or _').optional(),
    password: password.optional(),
    /** Buying one VOD (signed in) instead of a membership. */
    vod: vodPath.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.vod !== undefined) return;
    if (body.username === undefined) ctx.addIssue({ code: 'custom', path: ['username'], message: 'required' });
    if (body.password === undefined) ctx.addIssue({ code: 'custom', path: ['password'], message: 'required' });
  });
export type FrontendTokenBody = z.infer<typeof frontendTokenBody>;

/**
 * Spec §7's body. formData also carries the form's price, period, rebills and currency: they are
 * accepted and ignored — what is charged comes from server configuration or the VOD's row.
 */
export const processPaymentBody = z.object({
  accessToken: z.string().regex(/^[\w-]{43}$/, 'the handle from /api/get_ccbill_back_token'),
  paymentToken: z.string().regex(/^[\w-]{8,64}$/, "the provider's paymentTokenId"),
  vod: vodPath.optional(),
  /** The membership terms the page showed (GET /api/payment-config's offer.id); never a price. */
  offerId: z.number().int().min(0).max(2_147_483_647).optional(),
  formData: z
    .object({
      username: z.string().regex(USERNAME, '3-15 letters, digits or _').optional(),
      password: password.optional(),
      email: z.string().max(EMAIL_MAX, stop()).regex(EMAIL, 'an e-mail address'),
    })
    .loose(),
});
export type ProcessPaymentBody = z.infer<typeof processPaymentBody>;

/** `GET /api/username-available?u=`: one candidate username, by the join form's rule. */
export const usernameQuery = z.object({
  u: z.string().regex(USERNAME, '3-15 letters, digits or _'),
});

/** Step 3's body: the payment token step 2 made, which the handle is bound to (one browser claims it). */
export const backendHandleBody = z.object({
  paymentToken: z.string().regex(/^[\w-]{8,64}$/, "the provider's paymentTokenId"),
});
