import { z } from 'zod';
import { OUTCOMES, APPEAL_DECISIONS } from './report-vocabulary';

/**
 * The answers of the member-side API (session, account, payments, the report form): the bff's
 * handlers build them as these types and its OpenAPI document (GET /api/openapi.json) is written
 * from these schemas; the SPA takes the types with `import type`, so it ships no zod.
 */

/** GET /api/me, and the answer of every sign-in (POST /api/login, /api/password-reset/confirm). */
export const member = z.strictObject({
  username: z.string(),
  /** `paidUntil`: the last paid day, YYYY-MM-DD; null without a membership. */
  membership: z.strictObject({ active: z.boolean(), paidUntil: z.string().nullable() }),
  /** The bought VODs the catalog shows (their folders): what the pages mark "Owned". */
  vods: z.array(z.string()),
  /** Lifetime of the media cookie this answer renews. */
  mediaTokenSeconds: z.number().int(),
});
export type Member = z.infer<typeof member>;

/** One size to download: `Original`, then each rendition (`1080p`…), largest first. */
export const downloadChoice = z.strictObject({
  label: z.string(),
  /** null: not known (encoded before the original's size was recorded, or not encoded yet). */
  bytes: z.number().int().nullable(),
  /** The site path /api/download-link signs. */
  path: z.string(),
});
export type DownloadChoice = z.infer<typeof downloadChoice>;

/** A bought VOD on the account page; one taken down since stays listed as removed (no title, no folder). */
export const boughtVod = z.union([
  z.strictObject({ path: z.string(), updatename: z.string(), download: z.string(), downloads: z.array(downloadChoice) }),
  z.strictObject({ removed: z.literal(true) }),
]);
export type BoughtVod = z.infer<typeof boughtVod>;

/** GET /api/account: what /api/me says, the e-mail address, whether the membership rebills, the bought VODs. */
export const accountView = z.strictObject({
  ...member.shape,
  email: z.string(),
  /**
   * `renews`: false once rebilling is cancelled (the paid time still runs). `cancellable`: the member
   * can cancel it here (POST /api/account/cancel-renewal); false where the site has no access to the
   * provider's subscription management (then support cancels it).
   */
  membership: z.strictObject({ ...member.shape.membership.shape, renews: z.boolean(), cancellable: z.boolean() }),
  vodItems: z.array(boughtVod),
  /** Whether the member gets an e-mail when models in their list release something (PUT/DELETE /api/account/release-mail). */
  releaseMail: z.boolean(),
});
export type AccountView = z.infer<typeof accountView>;

/** POST /api/account/cancel-renewal: the membership as it is now, and a sentence for the member. */
export const renewalCancelled = z.strictObject({
  /** The last paid day, YYYY-MM-DD: access runs until then. */
  paidUntil: z.string().nullable(),
  message: z.string(),
});
export type RenewalCancelled = z.infer<typeof renewalCancelled>;

/** A sentence for the person (202 answers: a link was sent). */
/** PUT and DELETE /api/account/release-mail: whether release mails are on now. */
export const releaseMailState = z.strictObject({ releaseMail: z.boolean() });
export type ReleaseMailState = z.infer<typeof releaseMailState>;

export const messageAnswer = z.strictObject({ message: z.string() });
export type MessageAnswer = z.infer<typeof messageAnswer>;

/** POST /api/account/email/confirm: the address the account has now. */
export const emailConfirmed = z.strictObject({ email: z.string() });
export type EmailConfirmed = z.infer<typeof emailConfirmed>;

/** GET /api/download-link: a signed URL for one /members/ file (and, with a CDN, its edge URL). */
export const downloadLink = z.strictObject({
  url: z.string(),
  expiresAt: z.string(),
  edgeUrl: z.string().optional(),
  edgeExpiresAt: z.string().optional(),
});
export type DownloadLink = z.infer<typeof downloadLink>;

/** GET /api/login-challenge: an ALTCHA v2 proof-of-work challenge, as altcha-lib makes it (the widget reads it). */
export const loginChallenge = z.looseObject({
  parameters: z.looseObject({
    algorithm: z.string(),
    nonce: z.string(),
    salt: z.string(),
    cost: z.number(),
    keyLength: z.number(),
    keyPrefix: z.string(),
  }),
  signature: z.string().optional(),
});
export type LoginChallenge = z.infer<typeof loginChallenge>;

/** GET /api/username-available?u=: whether the join form's username is free. */
export const usernameAvailability = z.strictObject({ username: z.string(), available: z.boolean() });
export type UsernameAvailability = z.infer<typeof usernameAvailability>;

/** GET /api/payment-config: the provider origin the SPA talks to and the membership's price. */
export const paymentConfig = z.strictObject({
  providerBase: z.string(),
  clientAccnum: z.number().int(),
  clientSubacc: z.number().int(),
  /** A decimal like "14.99": what every full period costs. */
  membershipPrice: z.string(),
  /** What a new member is charged now (the console's Prices, else the configuration), as contracts/src/membership-offer.ts words it. */
  offer: z.strictObject({
    /** Which terms these are: step 4 sends it back, and a change since is refused before any charge. */
    id: z.number().int(),
    price: z.string(),
    periodDays: z.number().int(),
    trial: z.strictObject({ price: z.string(), days: z.number().int() }).nullable(),
    /** False when memberships are sold without rebills. */
    renews: z.boolean(),
  }),
});
export type PaymentConfig = z.infer<typeof paymentConfig>;

/** POST /api/get_ccbill_token: the provider's frontend bearer (it can only create payment tokens) and where to use it. */
export const frontendToken = z.strictObject({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  providerBase: z.string(),
  clientAccnum: z.number().int(),
  clientSubacc: z.number().int(),
  timeToLive: z.number().int(),
  validNumberOfUse: z.number().int(),
});
export type FrontendToken = z.infer<typeof frontendToken>;

/** POST /api/get_ccbill_back_token: a single-use handle bound to this checkout, never the provider's bearer. */
export const backendHandle = z.strictObject({ access_token: z.string(), token_type: z.literal('handle'), expires_in: z.number() });
export type BackendHandle = z.infer<typeof backendHandle>;

export const PAYMENT_STATUSES = ['approved', 'declined', 'failed', 'unknown'] as const;

/** POST /api/process_payment: 200 when settled, 202 while the processor's answer is unknown. */
export const paymentOutcome = z.strictObject({
  approved: z.boolean(),
  status: z.enum(PAYMENT_STATUSES),
  message: z.string().optional(),
  /** A decline only: the card processor's own words. */
  declineText: z.string().optional(),
});
export type PaymentOutcome = z.infer<typeof paymentOutcome>;

/** POST /api/ccbill/webhook: stored, or a repeat of an event already stored. */
export const webhookReceipt = z.strictObject({ status: z.enum(['stored', 'duplicate']) });
export type WebhookReceipt = z.infer<typeof webhookReceipt>;

const instant = z.string().nullable();

/** A report as its reporter may see it by reference (ISO times): dates and outcome, never the details or addresses. */
export const reportStatus = z.strictObject({
  reference: z.string(),
  receivedAt: z.string(),
  acknowledgeBy: z.string(),
  acknowledgedAt: instant,
  resolveBy: z.string(),
  resolvedAt: instant,
  outcome: z.enum(OUTCOMES).nullable(),
  appealedAt: instant,
  appealDecideBy: instant,
  appealDecision: z.enum(APPEAL_DECISIONS).nullable(),
  appealBusinessDays: z.number().int(),
  canAppeal: z.boolean(),
});
export type ReportStatus = z.infer<typeof reportStatus>;
