import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { placeholderReason, weakKeyReason, weakProviderSecretReason } from '../src/secret-policy';
import { DEV_TOKEN_KEYS, parseKeyRing } from '../src/token';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

describe('token key strength', () => {
  it.each([
    ['base64 of 48 bytes (openssl rand -base64 48)', 'uwm3XDPirD0noeWLuCp5Y0FXgPS7+LjDURSMxflEdhWt4QxHcirFcwXl6DiKO1Yh'],
    ['base64 of 32 bytes, padded', 'UZ7wNxoE/ya1W9gyEJpQcMZZZLBxvRuEbRtEUzxd1z8='],
    ['base64url of 32 bytes', 'UZ7wNxoE_ya1W9gyEJpQcMZZZLBxvRuEbRtEUzxd1z8'],
    ['hex of 32 bytes (openssl rand -hex 32)', 'f68ac25f3dc915c01afc327e4aaa00e9290d7414839bcb9036b31b46e2f75a0d'],
    ['43 characters of mixed text', 'Correct Horse Battery Staple Purple Monkey9'],
  ])('accepts %s', (_what, secret) => {
    expect(weakKeyReason(secret)).toBeUndefined();
  });

  it.each([
    ['31 bytes of base64', 'UZ7wNxoE/ya1W9gyEJpQcMZZZLBxvRuEbRtEUzxd1z', /is 31 bytes as base64/],
    // Hex digits are judged as hex even where base64 would decode them to more bytes.
    ['63 hex digits', 'f68ac25f3dc915c01afc327e4aaa00e9290d7414839bcb9036b31b46e2f75a0', /is 31 bytes as hex/],
    ['42 characters of mixed text', 'Correct Horse Battery Staple Purple Monke9', /is 42 characters of plain text/],
    ['a long phrase in lower case', 'correct horse battery staple purple monkey dishwasher', /is 53 characters of plain text/],
    ['a repeated pattern', 'abcdefghij'.repeat(5), /uses only 10 different characters/],
    ['the development key', DEV_TOKEN_KEYS.slice(4), /published in this repository/],
    ['change-me written any way', 'CHANGE_ME-uwm3XDPirD0noeWLuCp5Y0FXgPS7+LjDURSMxflE', /contains "CHANGE_ME"/],
  ])('refuses %s', (_what, secret, reason) => {
    expect(weakKeyReason(secret)).toMatch(reason);
  });

  it('asks a provider secret for at least 16 characters, 8 of them different', () => {
    expect(weakProviderSecretReason('3f9a8c7d2e1b4a5f')).toBeUndefined();
    expect(weakProviderSecretReason('3f9a8c7d2e1b4a5')).toMatch(/is 15 characters/);
    expect(weakProviderSecretReason('abababababababab')).toMatch(/2 different ones/);
  });
});

// Every place this repository publishes a sample value for a secret. A new example in any of them
// must be one production refuses (add it to PUBLISHED_SECRETS when nothing else catches it).
const SCANNED = /\.(?:md|ya?ml|example|sh|template)$|Dockerfile$/;
const SKIPPED = new Set(['node_modules', '.git', 'dist', '.data', 'artifacts']);

function scannedFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return scannedFiles(path);
    return SCANNED.test(entry.name) ? [path] : [];
  });
}

type Kind = 'token keys' | 'provider secret' | 'database password';
const VARIABLES: [RegExp, Kind][] = [
  [/MEDIA_TOKEN_KEYS/, 'token keys'],
  [/CCBILL_(?:FRONTEND|BACKEND)_SECRET/, 'provider secret'],
  [/MYSQL_(?:ROOT_)?PASSWORD/, 'database password'],
];

/** Values a line gives the variable: `NAME=v`, `NAME: v`, `${NAME:-v}`, and backticked words beside the name. */
function valuesIn(line: string, name: RegExp): string[] {
  const n = name.source;
  const patterns = [new RegExp(`(?:^|\\s|export\\s)${n}=([^\\s'"]+)`), new RegExp(`\\$\\{${n}:?-([^}]+)\\}`), new RegExp(`^\\s*${n}:\\s*([^\\s$'"][^\\s'"]*)`)];
  const found = patterns.flatMap((p) => p.exec(line)?.slice(1) ?? []);
  // Backticked words are values unless they name something: another variable, a file, a path.
  const names = (v: string) => /^[A-Z][A-Z0-9_]*$/.test(v) || /^\.|\//.test(v);
  const ticked = [...line.matchAll(/`([^`\s]+)`/g)].map((m) => m[1] ?? '').filter((v) => !new RegExp(`^${n}$`).test(v) && !/[=$]/.test(v) && !names(v));
  return [...found, ...ticked];
}

function refusedInProduction(kind: Kind, value: string): boolean {
  if (kind === 'database password') return placeholderReason(value) !== undefined;
  if (kind === 'provider secret') return weakProviderSecretReason(value) !== undefined;
  let secrets: string[];
  try {
    secrets = [...parseKeyRing(value).byId.values()].map((s) => s.toString('utf8'));
  } catch {
    return true; // not a key ring: refused before any strength check
  }
  return secrets.every((s) => weakKeyReason(s) !== undefined);
}

describe('published example secrets', () => {
  const examples: { file: string; kind: Kind; value: string }[] = [];
  for (const file of scannedFiles(repoRoot)) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      for (const [name, kind] of VARIABLES) {
        if (!name.test(line)) continue;
        for (const value of valuesIn(line, name)) examples.push({ file: relative(repoRoot, file), kind, value });
      }
    }
  }
  // The simulator's credentials, which `npm start` uses.
  const simulator = readFileSync(join(repoRoot, 'tools/simulator/src/simulator.ts'), 'utf8');
  for (const m of simulator.matchAll(/secret: '([^']+)'/g)) examples.push({ file: 'tools/simulator/src/simulator.ts', kind: 'provider secret', value: m[1] ?? '' });

  it('finds the examples it must (the scan itself works)', () => {
    const values = examples.map((e) => e.value);
    expect(values).toContain(DEV_TOKEN_KEYS);
    expect(values).toContain('sim-backend-secret-local-only');
    // The repository publishes no password example any more; the scan still reads one where a line gives it.
    expect(valuesIn('  MYSQL_ROOT_PASSWORD: change-me-root', /MYSQL_(?:ROOT_)?PASSWORD/)).toEqual(['change-me-root']);
    expect(valuesIn('the names `CCBILL_BACKEND_APP_ID` and `.env` beside MYSQL_PASSWORD', /MYSQL_(?:ROOT_)?PASSWORD/)).toEqual([]);
  });

  it('are all refused in production', () => {
    const accepted = examples.filter((e) => e.value !== '' && !refusedInProduction(e.kind, e.value));
    expect(accepted, 'published examples production would accept').toEqual([]);
  });
});
