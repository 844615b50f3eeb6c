import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Anything may reach the media service's port on its host or network and send X-Forwarded-*: it
// must decide by token, signed link and path alone, never by who the request claims to come from.
const src = fileURLToPath(new URL('../src', import.meta.url));
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.includes('.test.') ? [join(dir, e.name)] : [],
  );

describe('forwarded headers', () => {
  it('are read nowhere: no client address, scheme or host from the request, and Koa never trusts a proxy', () => {
    const readers = /\bctx\.(?:request\.)?(?:ips?|protocol|secure|host|hostname|origin|href)\b|\.proxy\s*=\s*true|x-forwarded|x-real-ip/i;
    const found = sources(src).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => `${file.slice(src.length + 1)}:${i + 1}: ${line.trim()}`)
        .filter((line) => readers.test(line.slice(line.indexOf(': ') + 2))),
    );
    expect(found).toEqual([]);
  });
});
