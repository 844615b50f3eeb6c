import { createChallenge, randomInt, verifySolution, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { z } from 'zod';
import type { KeyRing } from '@media-site/contracts/token';
import { signinPurposeKey } from './device-cookie';
import type { RateLimiter } from './rate-limit';

/**
 * Self-hosted ALTCHA proof of work (altcha-lib v2), asked of a sign-in once its username's budget
 * is spent: the owner pays about a second of browser CPU once, a guesser pays it for every guess.
 *
 * Deterministic mode: we pick a secret counter in [COUNTER_MIN, COUNTER_MAX] and sign the key it
 * derives; the browser walks counters from 0 (PBKDF2/SHA-256, COST iterations each) until its key
 * matches, so the work is uniform between the two bounds, never a long unlucky tail. Making a
 * challenge costs us one PBKDF2 of COST iterations, checking one costs two HMACs.
 * Difficulty: 5,000-10,000 tries × 100 iterations = 0.5-1 M PBKDF2 iterations, measured at
 * ~0.5-1 s in Chromium on one core of a 2-core laptop (bff/README.md "Sign-in limits").
 *
 * Keys: SIGNIN_KEYS, under keys derived for this purpose only (never the media keys), with the kid
 * in the signed data so a rotation does not void challenges already out.
 */
export const ALTCHA_ALGORITHM = 'PBKDF2/SHA-256';
export const ALTCHA_COST = 100;
export const ALTCHA_COUNTER_MIN = 5_000;
export const ALTCHA_COUNTER_MAX = 10_000;
/** How long a challenge may be solved and spent: enough for a slow phone, short enough to expire. */
export const ALTCHA_LIFETIME_SECONDS = 5 * 60;

const purposeKey = (secret: Buffer, purpose: string) => signinPurposeKey(secret, purpose).toString('hex');
const signatureKey = (secret: Buffer) => purposeKey(secret, 'altcha-challenge');
const keySignatureKey = (secret: Buffer) => purposeKey(secret, 'altcha-challenge-key');

/** A challenge for `GET /api/login-challenge`, valid ALTCHA_LIFETIME_SECONDS from `nowMs`. */
export function createLoginChallenge(keys: KeyRing, nowMs: number): Promise<Challenge> {
  const { kid, secret } = keys.signing;
  return createChallenge({
    algorithm: ALTCHA_ALGORITHM,
    cost: ALTCHA_COST,
    counter: randomInt(ALTCHA_COUNTER_MIN, ALTCHA_COUNTER_MAX),
    deriveKey,
    data: { kid, purpose: 'login' },
    expiresAt: Math.floor(nowMs / 1000) + ALTCHA_LIFETIME_SECONDS,
    hmacSignatureSecret: signatureKey(secret),
    hmacKeySignatureSecret: keySignatureKey(secret),
  });
}

// What the widget posts (base64 of JSON): only the shape we check, bounded, so nothing odd reaches the library.
// A failed bound ends the parse (zod 4 would otherwise run the pattern too, over the whole value).
const hex = (max: number) =>
  z
    .string()
    .max(max, { abort: true })
    .regex(/^[0-9a-f]+$/);
const payloadSchema = z.object({
  challenge: z.object({
    parameters: z.object({
      algorithm: z.literal(ALTCHA_ALGORITHM),
      nonce: hex(64),
      salt: hex(64),
      cost: z.number().int().positive(),
      keyLength: z.number().int().positive().max(64),
      keyPrefix: hex(128),
      keySignature: hex(128),
      expiresAt: z.number().int().positive(),
      data: z.object({ kid: z.string().max(32), purpose: z.literal('login') }),
    }),
    signature: hex(128),
  }),
  solution: z.object({ counter: z.number().int().min(0).max(0xffffffff), derivedKey: hex(128) }),
});

/** An ALTCHA payload is at most ~1 KB of base64; anything longer is not one. */
export const ALTCHA_PAYLOAD_MAX = 2048;

export type ProofCheck = 'ok' | 'invalid' | 'expired' | 'replayed';

/**
 * Checks a solved challenge and spends it: single use, remembered in the limiter's store (Redis
 * when configured, so every bff instance sees it) for the challenge's lifetime, after which its
 * expiry refuses it anyway.
 */
export async function spendLoginProof(keys: KeyRing, limiter: RateLimiter, payload: string, nowMs: number): Promise<ProofCheck> {
  let parsed: z.infer<typeof payloadSchema>;
  try {
    const result = payloadSchema.safeParse(JSON.parse(Buffer.from(payload, 'base64').toString('utf8')));
    if (!result.success) return 'invalid';
    parsed = result.data;
  } catch {
    return 'invalid';
  }
  const { parameters } = parsed.challenge;
  const secret = keys.byId.get(parameters.data.kid);
  if (!secret) return 'invalid';
  // altcha-lib compares expiry with Date.now(); ours may be a test's clock, so check both.
  if (parameters.expiresAt * 1000 <= nowMs) return 'expired';
  const check = await verifySolution({
    challenge: parsed.challenge,
    solution: parsed.solution,
    deriveKey,
    hmacSignatureSecret: signatureKey(secret),
    hmacKeySignatureSecret: keySignatureKey(secret),
  });
  if (check.expired) return 'expired';
  if (!check.verified) return 'invalid';
  // First use opens the key's window; any later use in it is refused (an atomic INCR in Redis).
  const first = await limiter.hit(`altcha:spent:${parsed.challenge.signature}`, 1, ALTCHA_LIFETIME_SECONDS);
  return first ? 'ok' : 'replayed';
}
