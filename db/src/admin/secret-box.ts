import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import type { KeyRing } from '@media-site/contracts/token';

// Admins' TOTP secrets at rest (docs/security.md "Operator console"): AES-256-GCM under a key of
// ADMIN_SECRET_KEYS (the `kid:secret` ring format of SIGNIN_KEYS), a fresh 96-bit IV each time,
// stored as `v1.<kid>.<iv>.<tag>.<ciphertext>` (base64url). The first key encrypts, every key
// decrypts, so keys rotate: a row under an older key (or a plain row from before encryption) is
// re-encrypted under the first key at its next good sign-in, or at once by `admin rekey`.

const PREFIX = 'v1';
const AAD = 'admin-totp-secret';

/** The AES key one ring secret gives: HMAC-SHA256(secret, purpose), 32 bytes whatever the secret's length. */
const aesKey = (secret: Buffer) => createHmac('sha256', secret).update('admin-totp-secret-aes-256-gcm').digest();

export function sealSecret(keys: KeyRing, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', aesKey(keys.signing.secret), iv);
  cipher.setAAD(Buffer.from(AAD));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  const parts = [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url'));
  return [PREFIX, keys.signing.kid, ...parts].join('.');
}

/** True when `stored` is not sealed under the ring's first key (plain, or an older key): re-seal it. */
export function needsReseal(keys: KeyRing, stored: string): boolean {
  return !stored.startsWith(`${PREFIX}.${keys.signing.kid}.`);
}

/**
 * A sealed secret that the configured ring cannot open: its key id is not in ADMIN_SECRET_KEYS
 * (a key retired before `admin rekey` ran, a ring set wrong on one host), or the row does not
 * verify under that key. `kid` names the key, never the value; the bff answers 503 and logs it.
 */
export class SealedSecretError extends Error {
  constructor(
    readonly kid: string,
    readonly problem: 'missing_key' | 'does_not_open',
  ) {
    super(
      problem === 'missing_key'
        ? `an admin TOTP secret is sealed under key "${kid}", which ADMIN_SECRET_KEYS does not hold`
        : `an admin TOTP secret does not open under key "${kid}" of ADMIN_SECRET_KEYS (wrong key, or the row was altered)`,
    );
    this.name = 'SealedSecretError';
  }
}

/**
 * The plain secret of a stored value. A value without the `v1.` prefix is a plain base32 secret
 * written before encryption (returned as is, for lazy re-encryption); an unknown key id or a
 * failed tag throws, naming the key id but never the value.
 */
export function openSecret(keys: KeyRing, stored: string): string {
  if (!stored.startsWith(`${PREFIX}.`)) return stored;
  const [, kid = '', iv = '', tag = '', body = ''] = stored.split('.');
  const secret = keys.byId.get(kid);
  if (!secret) throw new SealedSecretError(kid, 'missing_key');
  try {
    const decipher = createDecipheriv('aes-256-gcm', aesKey(secret), Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(AAD));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new SealedSecretError(kid, 'does_not_open');
  }
}
