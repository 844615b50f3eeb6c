import { deflateRawSync } from 'node:zlib';
import { z } from 'zod';
import { DEV_TOKEN_KEYS, parseKeyRing } from './token';

/**
 * What production accepts as a secret. One implementation for both services (the bff imports it
 * beside parseKeyRing), so their rules cannot drift; docs/deploy.md, "Secrets and trust in
 * production", states the same rules in words.
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
    ctx.addIssue({
      code: 'custom',
      message: `"${raw}" is not one of ${NODE_ENVS.join(', ')} (case and spaces are ignored; unset means development)`,
    });
    return z.NEVER;
  })
  .meta({
    description:
      "`production`, `development` or `test`, in any case and spacing (`Production` is production); anything else stops the process; production refuses local secrets and the simulator's settings",
    defaultText: 'development',
  });

export const GENERATE_SECRET = 'generate one with `openssl rand -base64 48`';

/**
 * SIGNIN_KEYS for local development only (the bff's sign-in secrets: device cookies and the like).
 * A ring of its own, so a leaked or rotated media key says nothing about sign-in; production refuses it.
 */
export const DEV_SIGNIN_KEYS = 'dev:local-development-only-signin-key';

/**
 * ADMIN_SECRET_KEYS for local development only: the key ring that seals operator console admins'
 * TOTP secrets at rest (db/src/admin/secret-box.ts), read by the bff and the operator CLI alike.
 * Production refuses it.
 */
export const DEV_ADMIN_SECRET_KEYS = 'dev:local-development-only-admin-secret-key';

/**
 * Values published in this repository: .env.example, docker-compose.yml, the READMEs and docs, the
 * card-provider simulator. secret-policy.test.ts reads those files and fails when one of their
 * examples is not refused here.
 */
export const PUBLISHED_SECRETS: ReadonlySet<string> = new Set([
  DEV_TOKEN_KEYS.slice(DEV_TOKEN_KEYS.indexOf(':') + 1),
  DEV_SIGNIN_KEYS.slice(DEV_SIGNIN_KEYS.indexOf(':') + 1),
  DEV_ADMIN_SECRET_KEYS.slice(DEV_ADMIN_SECRET_KEYS.indexOf(':') + 1),
  'change-me-media-token-key-0123456789',
  'sim-frontend-secret-local-only',
  'sim-backend-secret-local-only',
  // The test database container's root password (db/src/testing-global-setup.ts).
  'test',
]);

/** Words that mark a placeholder whatever surrounds them. */
const PLACEHOLDER = /change[\s_-]?me|local[\s_-]?only/i;

/** Token keys sign member access: 32 random bytes, as `openssl rand -base64 48` or `-hex 32` gives. */
export const MIN_KEY_BYTES = 32;
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

// Keyboard rows (and, through them, columns): "qwerty", "asdf", "1qaz" are typed, not drawn at random.
const KEYBOARD_ROWS = ['1234567890', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm'];
const KEY_AT = new Map<string, { row: number; col: number }>(
  KEYBOARD_ROWS.flatMap((keys, row) => [...keys].map((key, col) => [key, { row, col }] as const)),
);
const ALNUM = /^[a-z\d]$/i;

/**
 * The step from one character to the next when it continues a sequence, else 0: +/-1 in the
 * alphabet or digits ("abc", "987"), +/-2 along a keyboard row ("qwe"), +/-3 down a column ("1qa").
 */
function sequenceStep(from: string, to: string): number {
  const delta = to.charCodeAt(0) - from.charCodeAt(0);
  if (Math.abs(delta) === 1 && ALNUM.test(from) && ALNUM.test(to)) return delta;
  const a = KEY_AT.get(from.toLowerCase());
  const b = KEY_AT.get(to.toLowerCase());
  if (!a || !b) return 0;
  if (a.row === b.row && Math.abs(a.col - b.col) === 1) return 2 * (b.col - a.col);
  if (a.col === b.col && Math.abs(a.row - b.row) === 1) return 3 * (b.row - a.row);
  return 0;
}

/** The share of `s` inside runs of 3+ characters that keep one sequence step. */
function sequenceShare(s: string): number {
  let covered = 0;
  let length = 1;
  let step = 0;
  for (let i = 1; i <= s.length; i += 1) {
    const next = i < s.length ? sequenceStep(s[i - 1] ?? '', s[i] ?? '') : 0;
    if (next !== 0 && (length === 1 || next === step)) {
      length += 1;
    } else {
      if (length >= 3) covered += length;
      length = next === 0 ? 1 : 2;
    }
    step = next;
  }
  return covered / s.length;
}

/** The shortest shift under which half or more of `s` repeats itself (a block written again), or 0. */
function repeatPeriod(s: string): number {
  for (let period = 1; period <= s.length / 2; period += 1) {
    let same = 0;
    for (let i = 0; i + period < s.length; i += 1) if (s[i] === s[i + period]) same += 1;
    if (same >= MAX_REPEAT_SHARE * (s.length - period)) return period;
  }
  return 0;
}

/**
 * Limits measured on 50,000 values each of `openssl rand -base64 48`, `-base64 32` and `-hex 32`
 * (the largest seen in brackets): a shift repeats at most a third of a random key (0.33, hex), runs
 * cover at most a quarter (0.23, hex), deflate keeps at least 3/4 of its length (0.75, hex).
 */
const MAX_REPEAT_SHARE = 0.5;
const MAX_SEQUENCE_SHARE = 0.4;
const MIN_DEFLATE_RATIO = 0.6;

/**
 * Why a secret of enough length and variety still is not random, or undefined: a block repeated
 * ("0123456789abcdef" four times), mostly sequences (the alphabet, "qwerty", "1qaz2wsx"), or text
 * that compresses well. Random keys pass with a wide margin (see the limits above).
 */
export function patternReason(secret: string): string | undefined {
  if (secret.length === 0) return undefined;
  const period = repeatPeriod(secret);
  if (period > 0) return `repeats a block of ${period} character${period === 1 ? '' : 's'}: it is not random`;
  const sequences = sequenceShare(secret);
  if (sequences >= MAX_SEQUENCE_SHARE) return `is ${Math.round(sequences * 100)}% sequences (abc, 987, qwerty, 1qaz): it is not random`;
  const ratio = deflateRawSync(Buffer.from(secret, 'utf8'), { level: 9 }).length / Buffer.byteLength(secret, 'utf8');
  if (ratio < MIN_DEFLATE_RATIO) return `compresses to ${Math.round(ratio * 100)}% of its length: it is not random`;
  return undefined;
}

/**
 * Words, not randomness: names, paths and phrases are lower-case words, CamelCase and short numbers
 * ("encoding-renditions-for-the-player", "frontend/src/ReportForm"), long stretches of one kind of
 * character. Random base64 switches between upper case, lower case and digits every one or two
 * characters: over 200,000 fresh 32-byte keys no stretch averaged 3.8 characters (4.5 refuses).
 */
const WORD_STRETCH = 4.5;

export function readsAsWords(secret: string): boolean {
  const words: string[] = [];
  for (const stretch of secret.match(/[A-Z]+|[a-z]+|\d+/g) ?? []) {
    const last = words.length - 1;
    // "Capitalised" is one word: a single capital starting a lower-case stretch.
    if (last >= 0 && /^[A-Z]$/.test(words[last] ?? '') && /^[a-z]/.test(stretch)) words[last] += stretch;
    else words.push(stretch);
  }
  const characters = words.reduce((n, w) => n + w.length, 0);
  return words.length > 0 && characters / words.length >= WORD_STRETCH;
}

/** Why a value is a known placeholder rather than an operator's own, or undefined. */
export function placeholderReason(value: string): string | undefined {
  if (PUBLISHED_SECRETS.has(value))
    return 'is a value published in this repository (.env.example, docker-compose.yml, the docs or the simulator)';
  const marker = PLACEHOLDER.exec(value);
  if (marker) return `contains "${marker[0]}": it is a placeholder`;
  return undefined;
}

/**
 * Why `secret` cannot sign media tokens in production, or undefined when it can. Hex must decode to
 * 32 bytes (64 digits) with 12+ different digits; base64/base64url to 32 bytes (43 characters) with
 * 16+ different characters, not reading as words; other text is refused (a person typed it). None
 * may repeat a block, run through sequences or compress well (patternReason).
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
    // Typed text (a phrase, a URL, a path, a password with a few symbols) is what a person makes;
    // openssl and every key generator write hex or base64.
    return `is ${secret.length} characters of plain text, neither hex nor base64; it needs ${MIN_KEY_BYTES} random bytes written as 64 hex digits or 43+ base64 characters`;
  }
  if (distinct(secret) < variety) return `uses only ${distinct(secret)} different characters: it is not random`;
  const pattern = patternReason(secret);
  if (pattern) return pattern;
  if (encoding.kind === 'base64' && readsAsWords(secret)) return 'reads as words (a name, a path or a phrase): it is not random';
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
