import { z } from 'zod';
import { ADMIN_NAME, AUDIT_PAGE_MAX, PASSKEY_NAME_MAX } from '@media-site/db/admin';
import { SEARCH_QUERY_MAX } from '@media-site/db/members';
import { ALTCHA_PAYLOAD_MAX } from '../../../security/altcha';
import { NOTE_MAX } from '@media-site/contracts/report-vocabulary';

const b64url = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[\w-]*$/, 'must be base64url');

const totpCode = z.string().regex(/^\d{6}$/, 'must be 6 digits');

export const totpSignInBody = z.strictObject({
  name: z.string().max(32, { error: 'not an admin name', abort: true }).regex(ADMIN_NAME, 'not an admin name'),
  code: totpCode,
  /** A solved proof of work, once a budget is spent (the members' sign-in widget and challenge). */
  altcha: z.string().max(ALTCHA_PAYLOAD_MAX).optional(),
});

/** A signed-in admin confirming it is them with a fresh code. */
export const totpConfirmBody = z.strictObject({ code: totpCode });

const passkeyName = z
  .string()
  .trim()
  .min(1, 'give the passkey a name')
  .max(PASSKEY_NAME_MAX, `at most ${PASSKEY_NAME_MAX} characters`)
  .regex(/^[^\p{Cc}\p{Cf}]+$/u, 'no control characters');

export const passkeyNameBody = z.strictObject({ name: passkeyName });

/** A PublicKeyCredential as @simplewebauthn/browser sends it, bounded field by field. */
const credentialShell = {
  id: b64url(255),
  rawId: b64url(255),
  type: z.literal('public-key'),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
};

export const registrationBody = z.strictObject({
  name: passkeyName.optional(),
  response: z.strictObject({
    ...credentialShell,
    response: z.object({
      clientDataJSON: b64url(4096),
      attestationObject: b64url(16_384),
      transports: z
        .array(z.enum(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']))
        .max(7)
        .optional(),
    }),
  }),
});

export const authenticationBody = z.strictObject({
  response: z.strictObject({
    ...credentialShell,
    response: z.object({
      clientDataJSON: b64url(4096),
      authenticatorData: b64url(4096),
      // ML-DSA-87 (a post-quantum passkey algorithm the server offers) signs in 4,627 bytes: 6,170 characters.
      signature: b64url(8192),
      userHandle: b64url(255).optional(),
    }),
  }),
});

export const auditQuery = z.strictObject({
  before: z.coerce.number().int().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(AUDIT_PAGE_MAX).default(50),
});

export const memberSearchQuery = z.strictObject({
  q: z
    .string()
    .max(SEARCH_QUERY_MAX, { error: `at most ${SEARCH_QUERY_MAX} characters`, abort: true })
    .trim()
    .min(1, 'give q: part of a username or e-mail, or a payment reference'),
});

/** A takedown or restore from the console: the item's site path or URL, why, and optionally the report it answers. */
export const contentChangeBody = z.strictObject({
  path: z.string().trim().min(1, 'give path, the site path or URL of the item').max(500),
  reason: z.string().trim().min(1, 'give a reason').max(NOTE_MAX),
  report: z.string().trim().min(1).max(40).optional(),
});
