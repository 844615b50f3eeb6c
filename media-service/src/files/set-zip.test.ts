import { utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signDownloadUrl, signSessionToken } from '@media-site/contracts/token';
import { RANGE_DATA, keys, put, raw, startFixture, type Fixture } from '../test/helpers';

const now = () => Math.floor(Date.now() / 1000);
const member = (over: { membershipActiveUntil?: number | null } = {}) =>
  `media_token=${signSessionToken(keys, { memberId: 7, expiresAt: now() + 600, membershipActiveUntil: now() + 86_400, vodPaths: [], ...over })}`;
const ZIP = '/members/photos/set-z/set-z.zip';
const FILES: Record<string, Buffer> = {
  '01.jpg': RANGE_DATA,
  '02.jpg': Buffer.alloc(5000, 7),
  '10 é.png': Buffer.from('not really a png'),
};

/** Every entry of a ZIP by its central directory, checked against its local header and CRC. */
function readZip(zip: Buffer): Array<{ name: string; data: Buffer; method: number }> {
  const eocd = zip.length - 22;
  expect(zip.readUInt32LE(eocd)).toBe(0x06054b50);
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  expect(at + zip.readUInt32LE(eocd + 12)).toBe(eocd);
  const out = [];
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    expect(zip.readUInt32LE(local)).toBe(0x04034b50);
    expect(zip.readUInt32LE(local + 14)).toBe(crc);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + size);
    expect(crc32(data) >>> 0).toBe(crc);
    out.push({ name, data, method });
    at += 46 + nameLength;
  }
  return out;
}

describe('a photo set as one ZIP', () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await startFixture();
    for (const [name, data] of Object.entries(FILES)) await put(fx.root, `photos/set-z/${name}`, data);
    await put(fx.root, 'photos/set-z/notes.txt', 'left out');
    await put(fx.root, 'photos/set-z/.hidden.jpg', 'left out');
    for (const name of Object.keys(FILES)) await utimes(join(fx.root, 'photos/set-z', name), 1_700_000_000, 1_700_000_000);
  });
  afterAll(() => fx.stop());

  it('holds every photo of the set, stored (no deflate), in name order, as an attachment', async () => {
    const res = await raw(fx.media.url, ZIP, { Cookie: member() });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="set-z.zip"/);
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    const entries = readZip(res.body);
    expect(entries.map((e) => [e.name, e.method])).toEqual([
      ['set-z/01.jpg', 0],
      ['set-z/02.jpg', 0],
      ['set-z/10 é.png', 0],
    ]);
    for (const e of entries) expect(e.data.equals(FILES[e.name.slice('set-z/'.length)]!)).toBe(true);
  });

  it('is the same bytes every time, so a download resumes with Range and If-Range', async () => {
    const full = await raw(fx.media.url, ZIP, { Cookie: member() });
    const again = await raw(fx.media.url, ZIP, { Cookie: member() });
    expect(again.body.equals(full.body)).toBe(true);
    const etag = String(full.headers.etag);
    expect(again.headers.etag).toBe(etag);
    for (const start of [0, 1, 29, 100, 1050, full.body.length - 30, full.body.length - 1]) {
      const part = await raw(fx.media.url, ZIP, { Cookie: member(), Range: `bytes=${start}-`, 'If-Range': etag });
      expect(part.status, `from ${start}`).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes ${start}-${full.body.length - 1}/${full.body.length}`);
      expect(part.body.equals(full.body.subarray(start)), `from ${start}`).toBe(true);
    }
    const middle = await raw(fx.media.url, ZIP, { Cookie: member(), Range: 'bytes=40-1100' });
    expect(middle.body.equals(full.body.subarray(40, 1101))).toBe(true);
    // Another version of the set: If-Range no longer matches, the whole new ZIP comes back.
    expect((await raw(fx.media.url, ZIP, { Cookie: member(), Range: 'bytes=10-', 'If-Range': '"z-other"' })).status).toBe(200);
    expect((await raw(fx.media.url, ZIP, { Cookie: member(), Range: `bytes=${full.body.length}-` })).status).toBe(416);
    expect((await raw(fx.media.url, ZIP, { Cookie: member(), 'If-None-Match': etag })).status).toBe(304);

    await put(fx.root, 'photos/set-z/03.jpg', 'one more');
    const changed = await raw(fx.media.url, ZIP, { Cookie: member() });
    expect(changed.headers.etag).not.toBe(etag);
    expect(readZip(changed.body).map((e) => e.name)).toContain('set-z/03.jpg');
  });

  it('needs what the set’s photos need; a signed link resumes without a cookie; taken down is 410', async () => {
    expect((await raw(fx.media.url, ZIP)).status).toBe(401);
    expect((await raw(fx.media.url, ZIP, { Cookie: member({ membershipActiveUntil: now() - 60 }) })).status).toBe(403);
    const nav = await raw(fx.media.url, ZIP, { Accept: 'text/html', 'Sec-Fetch-Mode': 'navigate' });
    expect([nav.status, nav.headers.location]).toEqual([303, '/photos/set-z']);
    const link = signDownloadUrl(keys, { path: ZIP, memberId: 7, expiresAt: now() + 3600 });
    const part = await raw(fx.media.url, link, { Range: 'bytes=5-9' });
    expect(part.status).toBe(206);
    expect((await raw(fx.media.url, '/members/photos/no-such-set/no-such-set.zip', { Cookie: member() })).status).toBe(404);
    expect((await raw(fx.media.url, '/members/photos/set-z/set-z.zip?w=320', { Cookie: member() })).status).toBe(400);
    fx.media.takedowns.replace(['photos/set-z/']);
    try {
      expect((await raw(fx.media.url, ZIP, { Cookie: member() })).status).toBe(410);
    } finally {
      fx.media.takedowns.replace([]);
    }
  });
});
