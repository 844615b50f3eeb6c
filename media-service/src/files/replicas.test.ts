// Media identity is the same on every replica: two media services over two copies of one tree
// (`cp -a`, as a deploy or a second host's sync would make them) agree on ETags, honour each other's
// If-Range and If-None-Match, and key variants alike, so two replicas can serve one client in turn.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, stat, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTempMedia } from '../testing';
import type { TempMedia } from '../testing';
import { TEST_KEYS, jpeg, put, raw } from '../test/helpers';

const FILE = 'freephotos/set-1/big.bin';
const IMAGE = 'photosthumbs/set-1/large.jpg';
const DATA = randomBytes(200_000);

async function cacheEntries(dir: string): Promise<string[]> {
  const names: string[] = [];
  for (const sub of await readdir(dir)) names.push(...(await readdir(join(dir, sub))).filter((n) => !n.endsWith('.tmp')));
  return names.sort();
}

describe('two replicas over two copies of one tree', () => {
  let source: string;
  let a: TempMedia;
  let b: TempMedia;
  const copy = async (root: string) => {
    execFileSync('cp', ['-a', `${source}/.`, root]);
  };

  beforeAll(async () => {
    source = await mkdtemp(join(tmpdir(), 'media-source-'));
    await put(source, FILE, DATA);
    await put(source, IMAGE, await jpeg(800, 600));
    const when = new Date('2025-03-04T05:06:07.891Z');
    for (const f of [FILE, IMAGE]) await utimes(join(source, f), when, when);
    a = await startTempMedia({ MEDIA_TOKEN_KEYS: TEST_KEYS }, {}, copy);
    b = await startTempMedia({ MEDIA_TOKEN_KEYS: TEST_KEYS }, {}, copy);
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await rm(source, { recursive: true, force: true });
  });

  it('are really different files (other inodes, same size and mtime)', async () => {
    const [sa, sb] = await Promise.all([stat(join(a.root, FILE)), stat(join(b.root, FILE))]);
    expect(sa.ino).not.toBe(sb.ino);
    expect([sa.size, sa.mtimeMs]).toEqual([sb.size, sb.mtimeMs]);
  });

  it('send the same ETag and Last-Modified', async () => {
    const [ha, hb] = await Promise.all([
      raw(a.media.url, `/members/${FILE}`, {}, 'HEAD'),
      raw(b.media.url, `/members/${FILE}`, {}, 'HEAD'),
    ]);
    expect(ha.headers.etag).toBe(hb.headers.etag);
    expect(ha.headers['last-modified']).toBe(hb.headers['last-modified']);
  });

  it("resume on one replica a download started on the other (If-Range with the other's ETag or date)", async () => {
    const first = await raw(a.media.url, `/members/${FILE}`, { Range: 'bytes=0-99999' });
    expect(first.status).toBe(206);
    for (const validator of [String(first.headers.etag), String(first.headers['last-modified'])]) {
      const rest = await raw(b.media.url, `/members/${FILE}`, { Range: 'bytes=100000-', 'If-Range': validator });
      expect(rest.status).toBe(206);
      expect(Buffer.concat([first.body, rest.body]).equals(DATA)).toBe(true);
    }
  });

  it("answer 304 to the other's validators", async () => {
    const first = await raw(a.media.url, `/members/${FILE}`, {}, 'HEAD');
    expect((await raw(b.media.url, `/members/${FILE}`, { 'If-None-Match': String(first.headers.etag) })).status).toBe(304);
    expect((await raw(b.media.url, `/members/${FILE}`, { 'If-Match': String(first.headers.etag), Range: 'bytes=0-9' })).status).toBe(206);
  });

  it('key a variant alike: same ETag, same cache entry, same bytes; a shared cache renders it once', async () => {
    const url = `/members/${IMAGE}?w=320`;
    const accept = { Accept: 'image/webp,*/*' };
    const va = await raw(a.media.url, url, accept);
    const vb = await raw(b.media.url, url, accept);
    expect(va.status).toBe(200);
    expect(va.headers.etag).toMatch(/^"v-[0-9a-f]{40}"$/);
    expect(vb.headers.etag).toBe(va.headers.etag);
    expect(vb.body.equals(va.body)).toBe(true);
    expect(await cacheEntries(join(b.dir, 'variants'))).toEqual(await cacheEntries(join(a.dir, 'variants')));
    expect((await raw(b.media.url, url, { ...accept, 'If-None-Match': String(va.headers.etag) })).status).toBe(304);

    // A third replica over the second copy, sharing the first one's variant cache (a network mount).
    const c = await startTempMedia({ MEDIA_TOKEN_KEYS: TEST_KEYS, VARIANT_CACHE_DIR: join(a.dir, 'variants') }, {}, copy);
    try {
      const vc = await raw(c.media.url, url, accept);
      expect(vc.headers.etag).toBe(va.headers.etag);
      expect(c.media.variants.renders).toBe(0);
    } finally {
      await c.stop();
    }
  });
});
