import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { placeholderReason, readsAsWords, weakKeyReason, weakProviderSecretReason } from './secret-policy';
import { DEV_TOKEN_KEYS, parseKeyRing } from './token';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

// Keys an operator makes, made here at run time: a key written into this file would be one the
// repository publishes (the scan below fails on any committed value the policy accepts).
const base64 = (bytes: number) => randomBytes(bytes).toString('base64');
const hex = (bytes: number) => randomBytes(bytes).toString('hex');

describe('token key strength', () => {
  it.each([
    ['base64 of 48 bytes (openssl rand -base64 48)', () => base64(48)],
    ['base64 of 32 bytes, padded', () => base64(32)],
    ['base64url of 32 bytes', () => randomBytes(32).toString('base64url')],
    ['hex of 32 bytes (openssl rand -hex 32)', () => hex(32)],
  ])('accepts %s', (_what, make) => {
    const secret = make();
    expect(weakKeyReason(secret), secret).toBeUndefined();
  });

  it('accepts every one of 3,000 fresh `openssl rand -base64 48`, `-base64 32` and `-hex 32` values', () => {
    const refused: string[] = [];
    for (let i = 0; i < 1000; i += 1) {
      for (const secret of [base64(48), base64(32), hex(32)])
        if (weakKeyReason(secret)) refused.push(`${secret}: ${weakKeyReason(secret)}`);
    }
    expect(refused).toEqual([]);
  });

  it.each([
    ['31 bytes of base64', base64(31).replace(/={1,2}$/, ''), /is 31 bytes as base64/],
    // Hex digits are judged as hex even where base64 would decode them to more bytes.
    ['63 hex digits', hex(32).slice(1), /is 31 bytes as hex/],
    // Typed text, however long and mixed: a phrase, a URL, a path, a password with symbols.
    ['42 characters of mixed text', `${base64(30).slice(0, 38)}.~!?`, /is 42 characters of plain text, neither hex nor base64/],
    ['a long passphrase', 'Correct Horse Battery Staple Purple Monkey9 Dishwasher', /characters of plain text/],
    ['a URL with a password in it', `mysql://site:${hex(8)}@db.internal:3306/media_site`, /characters of plain text/],
    ['a path', '/members/videopreviews/quiet-harbour-model-a1/poster', /characters of plain text/],
    ['a long phrase in lower case', 'correct horse battery staple purple monkey dishwasher', /is 53 characters of plain text/],
    ['a repeated pattern', 'abcdefghij'.repeat(5), /uses only 10 different characters/],
    ['the development key', DEV_TOKEN_KEYS.slice(4), /published in this repository/],
    ['change-me written any way', `CHANGE_ME-${base64(36)}`, /contains "CHANGE_ME"/],
  ])('refuses %s', (_what, secret, reason) => {
    expect(weakKeyReason(secret)).toMatch(reason);
  });

  // Long and varied enough to pass the length and variety rules, and still no secret at all.
  it.each([
    ['0123456789abcdef four times', '0123456789abcdef'.repeat(4), /repeats a block of 16 characters/],
    ['the alphabet, both cases, then the digits', 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', /sequences/],
    ['the base64url alphabet in order', 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_', /sequences/],
    ['the alphabet backwards', 'zyxwvutsrqponmlkjihgfedcbaZYXWVUTSRQPONMLKJIHGFEDCBA9876543210', /sequences/],
    ['the keyboard rows', 'qwertyuiopasdfghjklzxcvbnmQWERTYUIOPASDFGHJKLZXCVBNM1234567890', /sequences/],
    ['the keyboard columns', '1qaz2wsx3edc4rfv5tgb6yhn7ujm8ik9ol0pQAZWSXEDCRFVTGBYHNUJMIKOLP', /sequences/],
    [
      'a random block written twice',
      (() => {
        const block = base64(30);
        return block.repeat(2);
      })(),
      /repeats a block of 40 characters/,
    ],
    ['a random start, then one block again and again', `${base64(9)}${'aB3dE5gH7kL9mN2pQ4'.repeat(3)}`, /repeats a block of 18 characters/],
    [
      'hex with a repeated half',
      (() => {
        // Every hex digit once, then random digits: a random 32-digit half can use only 11 different
        // digits (about 1 draw in 50), which the variety rule refuses first.
        const half = `${'0123456789abcdef'
          .split('')
          .sort(() => Math.random() - 0.5)
          .join('')}${hex(8)}`;
        return `${half}${half}`;
      })(),
      /repeats a block of 32 characters/,
    ],
  ])('refuses %s: not random', (_what, secret, reason) => {
    expect(weakKeyReason(secret)).toMatch(reason);
  });

  it.each([
    'frontend/src/features/reports/components/ReportForm',
    'encoding-renditions-and-previews-for-the-player',
    'frontend/src/features/videos/components/VideoDetailPage',
  ])('refuses %s: base64 characters that read as words', (secret) => {
    expect(weakKeyReason(secret)).toMatch(/reads as words/);
  });

  it('reads no fresh key as words', () => {
    for (let i = 0; i < 2000; i += 1)
      for (const key of [base64(32), randomBytes(32).toString('base64url'), base64(48)]) expect(readsAsWords(key), key).toBe(false);
  });

  it('refuses by compression what hides its repetition from the other checks', () => {
    // Four blocks in an order no single shift repeats half of: only deflate sees the copies.
    const blocks: Record<string, string> = { A: 'Kq7Zp2Wx9Lm4Rt8Y', B: 'Tr8Ys3Vn6Bc1Hj5G', C: 'Pw4Nd7Fk2Qz9Xe3M', D: 'Ub6Lg1Ja8Co5Sv2E' };
    const secret = [...'ABCDBADCCABD'].map((name) => blocks[name]).join('');
    expect(weakKeyReason(secret)).toMatch(/compresses to \d+% of its length/);
  });

  it('asks a provider secret for at least 16 characters, 8 of them different', () => {
    // 32 random hex digits: 16 would have fewer than 8 different ones about once in a hundred runs.
    expect(weakProviderSecretReason(hex(16))).toBeUndefined();
    expect(weakProviderSecretReason('3f9a8c7d2e1b4a5')).toMatch(/is 15 characters/);
    expect(weakProviderSecretReason('abababababababab')).toMatch(/2 different ones/);
  });
});

// No committed value passes the policy: every tracked file (`git ls-files`) is read for values given
// to a secret's name (each judged by that secret's rule) and for long random-looking literals
// anywhere (judged as token keys, the strictest rule). Tests make their keys at run time.

function trackedFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '-z'], { cwd: repoRoot, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return out.split('\0').filter(Boolean);
}

/** Text files only: a NUL byte marks binary content (images, fonts, archives). */
function textOf(file: string): string | undefined {
  const path = join(repoRoot, file);
  try {
    if (!statSync(path).isFile() || statSync(path).size > 4 * 1024 * 1024) return undefined;
    const bytes = readFileSync(path);
    return bytes.includes(0) ? undefined : bytes.toString('utf8');
  } catch {
    return undefined; // listed but deleted in the working tree
  }
}

type Kind = 'token keys' | 'key' | 'provider secret' | 'database password';
const VARIABLES: [RegExp, Kind][] = [
  [/MEDIA_TOKEN_KEYS|SIGNIN_KEYS|ADMIN_SECRET_KEYS/, 'token keys'],
  [/EDGE_URL_SECRET|WEBHOOK_PROXY_SECRET/, 'key'],
  [/CCBILL_(?:FRONTEND|BACKEND)_SECRET/, 'provider secret'],
  [/MYSQL_(?:ROOT_)?PASSWORD/, 'database password'],
];

/**
 * Values a line gives the variable: `NAME=v`, `NAME: v`, `NAME: 'v'` (yaml, code), `${NAME:-v}`, and
 * backticked words beside the name.
 */
function valuesIn(line: string, name: RegExp): string[] {
  const n = name.source;
  const patterns = [
    new RegExp(`(?:^|\\s|export\\s)(?:${n})=([^\\s'"]+)`),
    new RegExp(`\\$\\{(?:${n}):?-([^}]+)\\}`),
    new RegExp(`^\\s*(?:${n}):\\s*([^\\s$'"][^\\s'"]*)`),
    new RegExp(`(?:${n})['"]?\\s*[:=]\\s*['"\`]([^'"\`$]+)['"\`]`),
  ];
  // A call or a property read is code that makes the value at run time, not a value.
  const found = patterns.flatMap((p) => p.exec(line)?.slice(1) ?? []).filter((v) => !/^[\w.]+\(/.test(v));
  // Backticked words are values unless they name something: another variable, a file, a path.
  const names = (v: string) => /^[A-Z][A-Z\d_]*$/.test(v) || /^\.|\//.test(v);
  const ticked = [...line.matchAll(/`([^`\s]+)`/g)]
    .map((m) => m[1] ?? '')
    .filter((v) => !new RegExp(`^(?:${n})$`).test(v) && !/[=$]/.test(v) && !names(v));
  return [...found, ...ticked];
}

/** Secrets of a key ring ("kid:secret,..."), or the value itself when it is not one. */
function ringSecrets(value: string): string[] {
  try {
    return [...parseKeyRing(value).byId.values()].map((s) => s.toString('utf8'));
  } catch {
    return [value];
  }
}

function refusedInProduction(kind: Kind, value: string): boolean {
  if (kind === 'database password') return placeholderReason(value) !== undefined;
  if (kind === 'provider secret') return weakProviderSecretReason(value) !== undefined;
  if (kind === 'key') return weakKeyReason(value) !== undefined;
  try {
    parseKeyRing(value);
  } catch {
    return true; // not a key ring: refused before any strength check
  }
  return ringSecrets(value).every((s) => weakKeyReason(s) !== undefined);
}

/** Tokens long enough to be a key: runs of characters a key or a key ring can hold (no space, quote or bracket). */
const LONG_TOKEN = /[\w+/=.:~!@#%^&*,-]{43,}/g;

/**
 * Published digests, not secrets: npm's integrity hashes of public packages in package-lock.json,
 * which anyone can read from the registry.
 */
const PUBLIC_DIGEST = /^sha(?:1|256|384|512)-[A-Za-z\d+/]+=*$/;

interface Finding {
  file: string;
  line: number;
  value: string;
  why: string;
}

function scan(): { examples: { file: string; kind: Kind; value: string }[]; accepted: Finding[]; literals: number } {
  const examples: { file: string; kind: Kind; value: string }[] = [];
  const accepted: Finding[] = [];
  let literals = 0;
  for (const file of trackedFiles()) {
    const text = textOf(file);
    if (text === undefined) continue;
    text.split('\n').forEach((line, index) => {
      for (const [name, kind] of VARIABLES) {
        if (!name.test(line)) continue;
        for (const value of valuesIn(line, name)) {
          examples.push({ file, kind, value });
          if (value !== '' && !refusedInProduction(kind, value))
            accepted.push({ file, line: index + 1, value, why: `accepted as ${kind}` });
        }
      }
      for (const [token] of line.matchAll(LONG_TOKEN)) {
        if (PUBLIC_DIGEST.test(token)) continue;
        literals += 1;
        // The token as it stands, and its pieces: a key ring, `NAME=value`, a URL's query.
        const candidates = new Set([token, ...token.split(/[,=&]/), ...ringSecrets(token)]);
        for (const value of candidates) {
          if (value.length >= 43 && weakKeyReason(value) === undefined)
            accepted.push({ file, line: index + 1, value, why: 'a random-looking literal the token key policy accepts' });
        }
      }
    });
  }
  return { examples, accepted, literals };
}

describe('values committed to this repository', () => {
  const { examples, accepted, literals } = scan();

  it('finds what it must (the scan itself works)', () => {
    const values = examples.map((e) => e.value);
    expect(values).toContain(DEV_TOKEN_KEYS);
    expect(values).toContain('sim-backend-secret-local-only');
    expect(examples.map((e) => e.file)).toContain('.env.demo.example');
    expect(literals).toBeGreaterThan(0);
    expect(valuesIn('  MYSQL_ROOT_PASSWORD: change-me-root', /MYSQL_(?:ROOT_)?PASSWORD/)).toEqual(['change-me-root']);
    expect(valuesIn("  CCBILL_FRONTEND_SECRET: 'sim-frontend-secret-local-only',", /CCBILL_(?:FRONTEND|BACKEND)_SECRET/)).toEqual([
      'sim-frontend-secret-local-only',
    ]);
    // Code is not a value: an expression that makes one at run time.
    expect(valuesIn("  CCBILL_BACKEND_SECRET: randomBytes(18).toString('base64'),", /CCBILL_(?:FRONTEND|BACKEND)_SECRET/)).toEqual([]);
    expect(valuesIn('the names `CCBILL_BACKEND_APP_ID` and `.env` beside MYSQL_PASSWORD', /MYSQL_(?:ROOT_)?PASSWORD/)).toEqual([]);
  });

  it('skips nothing but npm integrity digests', () => {
    expect(PUBLIC_DIGEST.test(`sha512-${base64(64)}`)).toBe(true);
    expect(PUBLIC_DIGEST.test(base64(48))).toBe(false);
  });

  it('holds no value production would accept: every example, fixture and literal is refused', () => {
    expect(accepted, 'committed values production would accept (make them at run time, e.g. randomBytes(32).toString("hex"))').toEqual([]);
  });
});
