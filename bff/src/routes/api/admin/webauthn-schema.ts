import { z } from 'zod';

// The WebAuthn options the console's passkey calls answer, as @simplewebauthn/server writes them
// (the W3C JSON forms the browser's navigator.credentials calls take; the console types them with
// @simplewebauthn/browser's types). Loose: the library may add members the browser understands.

const credential = z.looseObject({ id: z.string(), type: z.literal('public-key'), transports: z.array(z.string()).optional() });

/** POST /api/admin/signin/passkey/options and /confirm/passkey/options. */
export const requestOptions = z.looseObject({
  challenge: z.string(),
  timeout: z.number().optional(),
  rpId: z.string().optional(),
  allowCredentials: z.array(credential).optional(),
  userVerification: z.string().optional(),
});

/** POST /api/admin/passkeys/options. */
export const creationOptions = z.looseObject({
  challenge: z.string(),
  rp: z.looseObject({ name: z.string(), id: z.string().optional() }),
  user: z.looseObject({ id: z.string(), name: z.string(), displayName: z.string() }),
  pubKeyCredParams: z.array(z.looseObject({ alg: z.number(), type: z.literal('public-key') })),
  timeout: z.number().optional(),
  excludeCredentials: z.array(credential).optional(),
  authenticatorSelection: z.looseObject({}).optional(),
  attestation: z.string().optional(),
});
