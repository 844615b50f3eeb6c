import { z } from 'zod';

/**
 * The operator console's shapes: the bff's /api/admin answers (built by db/src/admin, db/src/members
 * and the bff's admin routes as these types), its OpenAPI document, and the console (frontend/src/admin,
 * `import type` only).
 */

export const ADMIN_ROLES = ['owner', 'moderator', 'support'] as const;
export type AdminRole = (typeof ADMIN_ROLES)[number];
export const adminRole = z.enum(ADMIN_ROLES);

/** GET /api/admin/me and the answer of a console sign-in. */
export const adminMe = z.strictObject({ name: z.string(), role: adminRole });
export type AdminMe = z.infer<typeof adminMe>;

/** One audit log row as GET /api/admin/audit answers it (`at` in unix milliseconds). */
export const auditRow = z.strictObject({
  id: z.number().int(),
  at: z.number(),
  actor: z.string(),
  action: z.string(),
  target: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  address: z.string(),
});
export type AuditRow = z.infer<typeof auditRow>;

/** Support's member search (db/src/members/support.ts, GET /api/admin/members). */
export const memberFound = z.strictObject({
  username: z.string(),
  email: z.string(),
  createdAt: z.number(),
  paidUntil: z.number().nullable(),
  vods: z.number().int(),
  disabledAt: z.number().nullable(),
  disabledReason: z.string().nullable(),
  /** false: a sign-up payment names this username but no account exists (yet): a charge in doubt. */
  account: z.boolean(),
  /** What matched: part of the name or e-mail, or a payment reference (attempt, subscription, transaction). */
  matched: z.enum(['name', 'reference']),
});
export type MemberFound = z.infer<typeof memberFound>;

export const attemptView = z.strictObject({
  id: z.number().int(),
  kind: z.string(),
  vod: z.string().nullable(),
  amount: z.string(),
  currencyCode: z.number().int(),
  status: z.string(),
  /** Where the four-step chain stands for this attempt, in an operator's words. */
  step: z.string(),
  providerSubscriptionId: z.string().nullable(),
  declineText: z.string().nullable(),
  createdAt: z.number(),
  updatedAt: z.number(),
  /** Open (pending or unknown) for longer than STUCK_AFTER_MS: reconcile may settle it. */
  stuck: z.boolean(),
});
export type AttemptView = z.infer<typeof attemptView>;

/** Support's detail of one member (GET /api/admin/members/:username). */
export const memberDetail = z.strictObject({
  username: z.string(),
  account: z
    .strictObject({
      email: z.string(),
      createdAt: z.number(),
      disabledAt: z.number().nullable(),
      disabledReason: z.string().nullable(),
      revokedAt: z.number().nullable(),
    })
    .nullable(),
  membership: z.strictObject({
    paidUntil: z.number().nullable(),
    /** active, lapsed, none (never had one), or withdrawn (disabled or charged back). */
    state: z.enum(['active', 'lapsed', 'none', 'withdrawn']),
    subscriptions: z.array(
      z.strictObject({
        id: z.number().int(),
        status: z.string(),
        paidUntil: z.number().nullable(),
        providerSubscriptionId: z.string().nullable(),
        createdAt: z.number(),
      }),
    ),
  }),
  vods: z.array(z.strictObject({ path: z.string(), title: z.string(), status: z.string(), boughtAt: z.number() })),
  /** Sessions are not touched on use: the newest start is the last sign-in, not the last request. */
  sessions: z.strictObject({ count: z.number().int(), lastSignInAt: z.number().nullable(), expiresAt: z.number().nullable() }),
  attempts: z.array(attemptView),
  webhooks: z.array(
    z.strictObject({
      id: z.number().int(),
      eventType: z.string(),
      transactionId: z.string(),
      subscriptionId: z.string().nullable(),
      receivedAt: z.number(),
      outcome: z.string().nullable(),
    }),
  ),
});
export type MemberDetail = z.infer<typeof memberDetail>;

/** A passkey as the console lists it (never its key). */
export const passkeySummary = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  transports: z.array(z.string()),
  createdAt: z.number(),
  lastUsedAt: z.number().nullable(),
});
export type PasskeySummary = z.infer<typeof passkeySummary>;

/** One admin of GET /api/admin/admins. */
export const adminSummary = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  role: adminRole,
  email: z.string().nullable(),
  disabledAt: z.number().nullable(),
  createdAt: z.number(),
  passkeys: z.number().int(),
});
export type AdminSummary = z.infer<typeof adminSummary>;

/** A new TOTP secret, shown once: the text and its otpauth:// URI for an authenticator app. */
export const enrolment = z.strictObject({ name: z.string(), secret: z.string(), uri: z.string() });
export type Enrolment = z.infer<typeof enrolment>;

/** A session confirmed for sensitive changes until this time (unix ms). */
export const confirmation = z.strictObject({ confirmedUntil: z.number() });
export type Confirmation = z.infer<typeof confirmation>;

const count = z.number().int();
/** Which dashboard sections the role sees: an unseen section is absent from the answer. */
export const dashboardSections = z.strictObject({
  members: z.boolean(),
  payments: z.boolean(),
  encode: z.boolean(),
  reports: z.boolean(),
  operations: z.boolean(),
});
export type DashboardSections = z.infer<typeof dashboardSections>;

/** GET /api/admin/dashboard (db/src/admin/dashboard.ts): days are YYYY-MM-DD, money in cents. */
export const dashboardData = z.strictObject({
  sections: dashboardSections,
  now: z.number(),
  days: z.array(z.string()),
  members: z.array(z.strictObject({ day: z.string(), active: count, new: count, cancelled: count, chargedBack: count })).optional(),
  revenue: z
    .array(
      z.strictObject({
        currencyCode: count,
        days: z.array(z.strictObject({ day: z.string(), membership: z.number(), renewals: z.number(), vod: z.number() })),
        totalMembership: z.number(),
        totalRenewals: z.number(),
        totalVod: z.number(),
      }),
    )
    .optional(),
  encode: z.strictObject({ queued: count, running: count, failed: count, retrying: count }).optional(),
  reports: z.strictObject({ open: count, dueToday: count, overdue: count }).optional(),
  purge: z
    .strictObject({
      pending: count,
      oldest: z
        .strictObject({ id: count, event: z.string(), createdAt: z.number(), attempts: count, lastError: z.string().nullable() })
        .nullable(),
    })
    .optional(),
  /** When each media service last fetched its revocation and takedown lists. */
  mediaLists: z
    .array(
      z.strictObject({
        instance: z.string(),
        list: z.enum(['revocations', 'takedowns']),
        fetchedAt: z.number(),
        ageSeconds: z.number(),
        maxAgeSeconds: z.number().nullable(),
        late: z.boolean(),
      }),
    )
    .optional(),
  /** The last good backup set (`ops backup`), a failed run since, and whether none is newer than a day. */
  backup: z
    .strictObject({
      lastOk: z.strictObject({ setId: z.string(), finishedAt: z.number(), files: count, bytes: count }).nullable(),
      lastFailed: z.strictObject({ finishedAt: z.number(), error: z.string() }).nullable(),
      late: z.boolean(),
    })
    .optional(),
  errors: z
    .array(z.strictObject({ at: z.number(), source: z.enum(['encode', 'mail', 'purge']), subject: z.string(), text: z.string() }))
    .optional(),
});
export type DashboardData = z.infer<typeof dashboardData>;

// The smaller answers of the console's calls, by route.

/** GET /api/admin/audit: a page of the log, newest first; `next` is the `before` of the next page. */
export const auditPage = z.strictObject({ entries: z.array(auditRow), next: z.number().int().nullable() });
export type AuditPage = z.infer<typeof auditPage>;
/** GET /api/admin/members?q= */
export const memberSearch = z.strictObject({ members: z.array(memberFound) });
export type MemberSearch = z.infer<typeof memberSearch>;
/** POST /api/admin/members/:username/disable and /signout-all. */
export const memberSessionsEnded = z.strictObject({ username: z.string(), sessionsEnded: z.number().int() });
export type MemberSessionsEnded = z.infer<typeof memberSessionsEnded>;
/** POST /api/admin/members/:username/enable */
export const memberEnabled = z.strictObject({ username: z.string(), wasDisabled: z.boolean(), wasRevoked: z.boolean() });
export type MemberEnabled = z.infer<typeof memberEnabled>;
/** POST /api/admin/members/:username/extend: the paid-through time before and after (unix ms). */
export const membershipExtended = z.strictObject({ username: z.string(), before: z.number().nullable(), paidUntil: z.number() });
export type MembershipExtended = z.infer<typeof membershipExtended>;
/** POST /api/admin/payments/:id/reconcile: the attempt's status before and after. */
export const attemptReconciled = z.strictObject({ username: z.string(), before: z.string(), after: z.string() });
export type AttemptReconciled = z.infer<typeof attemptReconciled>;

/** GET /api/admin/passkeys: the admin's own passkeys, and until when the session is confirmed. */
export const ownPasskeys = z.strictObject({ passkeys: z.array(passkeySummary), confirmedUntil: z.number().nullable() });
export type OwnPasskeys = z.infer<typeof ownPasskeys>;
export const passkeyAdded = z.strictObject({ passkey: passkeySummary });
export type PasskeyAdded = z.infer<typeof passkeyAdded>;
export const passkeyRenamed = z.strictObject({ id: z.number().int(), name: z.string() });
export type PasskeyRenamed = z.infer<typeof passkeyRenamed>;
export const passkeyRevoked = z.strictObject({ revoked: z.number().int() });
export type PasskeyRevoked = z.infer<typeof passkeyRevoked>;

/** GET /api/admin/admins */
export const adminList = z.strictObject({ admins: z.array(adminSummary) });
export type AdminList = z.infer<typeof adminList>;
/** GET /api/admin/admins/:name/passkeys */
export const adminPasskeys = z.strictObject({ name: z.string(), passkeys: z.array(passkeySummary) });
export type AdminPasskeys = z.infer<typeof adminPasskeys>;
/** POST /api/admin/admins: the new admin and their TOTP secret, shown once. */
export const adminAdded = z.strictObject({ ...enrolment.shape, role: adminRole });
export type AdminAdded = z.infer<typeof adminAdded>;
/** POST /api/admin/admins/:name/totp: a new secret, shown once; the admin's sessions end. */
export const adminTotpReset = z.strictObject({ ...enrolment.shape, sessionsEnded: z.number().int(), passkeysRevoked: z.number().int() });
export type AdminTotpReset = z.infer<typeof adminTotpReset>;
export const adminsRekeyed = z.strictObject({ resealed: z.number().int(), kid: z.string() });
export type AdminsRekeyed = z.infer<typeof adminsRekeyed>;
export const adminDisabled = z.strictObject({ name: z.string(), sessionsEnded: z.number().int() });
export type AdminDisabled = z.infer<typeof adminDisabled>;
export const adminEnabled = z.strictObject({ name: z.string() });
export type AdminEnabled = z.infer<typeof adminEnabled>;
export const adminEmailSet = z.strictObject({ name: z.string(), email: z.string().nullable() });
export type AdminEmailSet = z.infer<typeof adminEmailSet>;
export const adminPasskeysRevoked = z.strictObject({ name: z.string(), revoked: z.number().int() });
export type AdminPasskeysRevoked = z.infer<typeof adminPasskeysRevoked>;
export const adminRoleChanged = z.strictObject({ name: z.string(), before: adminRole, after: adminRole });
export type AdminRoleChanged = z.infer<typeof adminRoleChanged>;
