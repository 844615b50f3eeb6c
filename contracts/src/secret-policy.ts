import { z } from 'zod';
import { DEV_TOKEN_KEYS, parseKeyRing } from './token';

/**
 * What production accepts as a secret. One implementation for both services (the bff imports it
 * beside parseKeyRing), so their rules cannot drift; the README's "Secrets in production" section
 * states the same rules in words.
 */

export const NODE_ENVS = ['production', 'development', 'test'] as const;
export type NodeEnv = (typeof NODE_ENVS)[number];

/**
 * NODE_ENV compared without case or surrounding spaces, so " Production" cannot skip the production
 * checks. Unset or empty is development; any other value (a typo such as "prod") stops the process
 * instead of quietly running with development defaults.
 */
export const nodeEnvSchema = z
  .string()
  .optional()
  .transform((raw, ctx): NodeEnv => {
    const value = (raw ?? '').trim().toLowerCase();
    if (value === '') return 'development';
    const known = NODE_ENVS.find((name) => name === value);
    if (known) return known;
    ctx.addIssue({ code: 'custom', message: `"${raw}" is not one of ${NODE_ENVS.join(', ')} (case and spaces are ignored; unset means development)` });
    return z.NEVER;
  });

export const GENERATE_SECRET = 'generate one with `openssl rand -base64 48`';

/**
 * SIGNIN_KEYS for local development only (the bff's sign-in secrets: device cookies and the like).
 * A ring of its own, so a leaked or rotated media key says nothing about sign-in; production refuses it.
 */
export const DEV_SIGNIN_KEYS = 'dev:local-development-only-signin-key';

/**
 * Values published in this repository: .env.example, docker-compose.yml, the READMEs and docs, the
 * card-provider simulator. secret-policy.test.ts reads those files and fails when one of their
 * examples is not refused here.
 */
export const PUBLISHED_SECRETS: ReadonlySet<string> = new Set([
  DEV_TOKEN_KEYS.slice(DEV_TOKEN_KEYS.indexOf(':') + 1),
  DEV_SIGNIN_KEYS.slice(DEV_SIGNIN_KEYS.indexOf(':') + 1),
  'change-me-media-token-key-0123456789',
  'sim-frontend-secret-local-only',
  'sim-backend-secret-local-only',
]);

/** Words that mark a placeholder whatever surrounds them. */
const PLACEHOLDER = /change[\s_-]?me|local[\s_-]?only/i;

/** Token keys sign member access: 32 random bytes, as `openssl rand -base64 48` or `-hex 32` gives. */
export const MIN_KEY_BYTES = 32;
/** Text that is neither hex nor base64: as long as 32 bytes in base64, and not a phrase. */
const MIN_TEXT_CHARS = 43;
/**
 * The card provider issues its own secrets and their length is not ours to choose; every format such
 * providers hand out (UUIDs, 32 hex digits, base64 blobs) is at least this long, while the
 * placeholders people type ("secret", "password", "test-key") are shorter.
 */
export const MIN_PROVIDER_SECRET_CHARS = 16;

const distinct = (s: string) => new Set(s).size;

/** How a secret is written, judged strictly: hex digits only count as hex, even where base64 would parse them. */
function encodingOf(secret: string): { kind: 'hex' | 'base64'; bytes: number } | { kind: 'text' } {
  if (/^[0-9a-f]+$/i.test(secret)) return { kind: 'hex', bytes: Math.floor(secret.length / 2) };
  if (/^[A-Za-z0-9+/]+={0,2}$/.test(secret) || /^[\w-]+={0,2}$/.test(secret)) {
    return { kind: 'base64', bytes: Math.floor((secret.replace(/={1,2}$/, '').length * 3) / 4) };
  }
  return { kind: 'text' };
}

/** Why a value is a known placeholder rather than an operator's own, or undefined. */
export function placeholderReason(value: string): string | undefined {
  if (PUBLISHED_SECRETS.has(value)) return 'is a value published in this repository (.env.example, docker-compose.yml, the docs or the simulator)';
  const marker = PLACEHOLDER.exec(value);
  if (marker) return `contains "${marker[0]}": it is a placeholder`;
  return undefined;
}

/**
 * Why `secret` cannot sign media tokens in production, or undefined when it can. Hex must decode to
 * 32 bytes (64 digits) with 12+ different digits; base64/base64url to 32 bytes (43 characters) with
 * 16+ different characters; any other text needs 43+ characters, 16+ different ones and three of
 * lower case, upper case, digits and symbols.
 */
export function weakKeyReason(secret: string): string | undefined {
  const placeholder = placeholderReason(secret);
  if (placeholder) return placeholder;
  const encoding = encodingOf(secret);
  const variety = encoding.kind === 'hex' ? 12 : 16;
  if (encoding.kind !== 'text' && encoding.bytes < MIN_KEY_BYTES) {
    return `is ${encoding.bytes} bytes as ${encoding.kind}; it needs ${MIN_KEY_BYTES} random bytes (${encoding.kind === 'hex' ? '64 hex digits' : '43+ base64 characters'})`;
  }
  if (encoding.kind === 'text') {
    const kinds = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((kind) => kind.test(secret)).length;
    if (secret.length < MIN_TEXT_CHARS || kinds < 3) {
      return `is ${secret.length} characters of plain text; it needs ${MIN_KEY_BYTES} random bytes (hex or base64), or ${MIN_TEXT_CHARS}+ characters mixing three of lower case, upper case, digits and symbols`;
    }
  }
  if (distinct(secret) < variety) return `uses only ${distinct(secret)} different characters: it is not random`;
  return undefined;
}

/**
 * Every problem of a key ring (MEDIA_TOKEN_KEYS, SIGNIN_KEYS) in production, one per key (each key
 * verifies, so each must be strong). `devDefault` is the ring's local default, refused by name.
 */
export function keyRingProblems(spec: string, devDefault: string = DEV_TOKEN_KEYS): string[] {
  if (spec.trim() === devDefault) return [`is the local development default (is it set?); ${GENERATE_SECRET} and set "k1:<that value>"`];
  const problems: string[] = [];
  for (const [kid, secret] of parseKeyRing(spec).byId) {
    const reason = weakKeyReason(secret.toString('utf8'));
    if (reason) problems.push(`key "${kid}" ${reason}; ${GENERATE_SECRET} and set "${kid}:<that value>"`);
  }
  return problems;
}

/** Why a provider-issued secret looks like a placeholder in production, or undefined. */
export function weakProviderSecretReason(secret: string): string | undefined {
  const placeholder = placeholderReason(secret);
  if (placeholder) return placeholder;
  if (secret.length < MIN_PROVIDER_SECRET_CHARS || distinct(secret) < 8) {
    return `is ${secret.length} characters with ${distinct(secret)} different ones: not a provider-issued secret (at least ${MIN_PROVIDER_SECRET_CHARS} characters, 8 different)`;
  }
  return undefined;
}
