import { z } from 'zod';
import { USERNAME } from '../auth/schema';

const vodPath = z.string().min(1).max(150).regex(/^[^/\\]+$/, 'a VOD folder name');

export const frontendTokenBody = z
  .object({
    /** The new member's choice; absent when a signed-in member buys a VOD (the session says who). */
    username: z.string().regex(USERNAME, '3-15 letters, digits or _').optional(),
    password: z.string().min(8, 'at least 8 characters').max(64, 'at most 64 characters').optional(),
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
  accessToken: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'the handle from /api/get_ccbill_back_token'),
  paymentToken: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, "the provider's paymentTokenId"),
  vod: vodPath.optional(),
  formData: z
    .object({
      username: z.string().regex(USERNAME, '3-15 letters, digits or _').optional(),
      password: z.string().min(8).max(64).optional(),
      email: z.string().max(254).regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'an e-mail address'),
    })
    .loose(),
});
export type ProcessPaymentBody = z.infer<typeof processPaymentBody>;

/** `GET /api/username-available?u=`: one candidate username, by the join form's rule. */
export const usernameQuery = z.object({
  u: z.string().regex(USERNAME, '3-15 letters, digits or _'),
});
