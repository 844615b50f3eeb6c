// @vitest-environment node
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const LIMIT = 100 * 1024;

function initialScripts(html: string): string[] {
  const scripts = [...html.matchAll(/<script\s[^>]*?\bsrc="([^"]+)"/g)].map((match) => match[1] ?? '');
  const preloads = [...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map((match) => match[1] ?? '');
  return [...scripts, ...preloads];
}

describe('production build', () => {
  let html = '';
  beforeAll(() => {
    // A separate process: inside vitest, NODE_ENV=test would give React's development build.
    const viteBin = join(dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin', 'vite.js');
    execFileSync(process.execPath, [viteBin, 'build', '--logLevel', 'warn'], {
      cwd: root,
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: 'pipe',
    });
    html = readFileSync(join(dist, 'index.html'), 'utf8');
  }, 120_000);

  it('keeps the JavaScript index.html loads under 100 KB gzipped', () => {
    const files = initialScripts(html);
    expect(files.length).toBeGreaterThan(0);
    const sizes = files.map((file) => gzipSync(readFileSync(join(dist, file))).length);
    const total = sizes.reduce((sum, size) => sum + size, 0);
    console.info(`initial JavaScript: ${(total / 1024).toFixed(1)} KB gzipped over ${files.length} files`);
    expect(total).toBeLessThan(LIMIT);
  });

  it('loads every route but home on demand', () => {
    const files = initialScripts(html);
    const initial = files.map((file) => readFileSync(join(dist, file), 'utf8')).join('\n');
    expect(initial).toContain('Latest Photos');
    for (const text of [
      'Test Route Match',
      'Sort Alphabetically',
      'Thank you: this VOD is yours.',
      'Failed to create payment token.',
      'Current ID',
    ]) {
      expect(initial).not.toContain(text);
    }
    const lazyChunks = readdirSync(join(dist, 'assets')).filter((file) => file.endsWith('.js') && !files.includes(`/assets/${file}`));
    expect(lazyChunks.length).toBeGreaterThan(15);
  });

  it('has no inline script in index.html (strict CSP)', () => {
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
  });
});
