// The media service's HTTP file semantics against the reference: nginx serving the same file.
// One list of Range and conditional headers goes to
//   (a) nginx static (the reference: `root`, `max_ranges 8`, `etag on`, as the /_protected/ location),
//   (b) the media service direct (MEDIA_OFFLOAD=none),
//   (c) the front door with MEDIA_OFFLOAD=nginx (access check, then nginx's /_protected/ sends the bytes),
//   (d) the front door with MEDIA_OFFLOAD=none (nginx proxies the service's answer),
// and the documented relationship is asserted (media-service/README.md, "Range requests and
// conditional requests"): (c) is identical to (a); (d) to (b); (b) to (a) except for the
// DIFFERENCES below, where each side's status is the documented one. Also: a download started on
// one path resumes on the other with If-Range, since both send nginx's ETag.
import { createHash } from 'node:crypto';
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signDownloadUrl } from '@media-site/contracts/token';
import { freePort, startNginx } from '../src/nginx';
import { rangeHeaders } from '../src/range-headers';
import type { RunningNginx } from '../src/nginx';
import { keys, put, raw, startMediaFixture } from './media-fixture';
import type { MediaFixture, RawResponse } from './media-fixture';

const SIZE = 1000;
const DATA = Buffer.from(Array.from({ length: SIZE }, (_, i) => (i * 7 + 3) % 251));
const FILE = 'video/clip-1/clip-1001.mp4';
const EMPTY = 'video/clip-1/empty001.mp4';
const MTIME = new Date('2024-01-01T00:00:00Z');
const LM = 'Mon, 01 Jan 2024 00:00:00 GMT';
const EARLIER = 'Sun, 31 Dec 2023 23:59:59 GMT';
const LATER = 'Tue, 02 Jan 2024 00:00:00 GMT';

const RANGES = [
  'bytes=0-4',
  'bytes=2-',
  'bytes=-5',
  'bytes=-1',
  'bytes=0-0',
  'bytes=999-',
  'bytes=999-999',
  'bytes=5-1000',
  'bytes=0-',
  'bytes=00-4',
  'bytes= 0-4',
  'bytes= 0 - 4',
  'Bytes=0-4',
  'BYTES=0-4',
  // Past the end, suffix longer than the file, positions at and past nginx's 2^63-1 limit.
  'bytes=990-2000',
  'bytes=-2000',
  'bytes=0-9223372036854775807',
  'bytes=-9223372036854775807',
  'bytes=0-9223372036854775808',
  'bytes=-99999999999999999999',
  'bytes=99999999999999999999-',
  // Unsatisfiable.
  `bytes=${SIZE}-`,
  `bytes=${SIZE}-${SIZE + 5}`,
  'bytes=2000-3000',
  'bytes=-0',
  'bytes=5-1',
  `bytes=${SIZE}-,2000-`,
  // Malformed.
  'bytes=alpha',
  'bytes=--2',
  'bytes=-',
  'bytes=1.5-3',
  'bytes=0x10-20',
  'bytes=1-2-3',
  'bytes=0-4,abc',
  'bytes=0-4,',
  'bytes=0-4,,6-9',
  'bytes=,0-4',
  'bytes=0-4,\t6-9',
  'bytes=0 4',
  'bytes=0-4;6-9',
  // Not bytes, or nothing to parse: ignored.
  'items=0-4',
  'bytes =0-4',
  'bytes=',
  '0-4',
  'bytes0-4',
  '',
  // Several ranges: multipart, clamped, dropped, overlapping, past the cap, adding up past the file.
  'bytes=0-4,10-14',
  'bytes=0-4, 10-14',
  'bytes=0-4 ,10-14',
  'bytes=10-14,0-4',
  'bytes=0-0,-1',
  'bytes=-1,-1',
  `bytes=0-4,${SIZE}-${SIZE + 5}`,
  'bytes=5-1,0-4',
  'bytes=0-499,500-999',
  'bytes=0-10,5-15',
  'bytes=0-600,400-999',
  'bytes=0-999,0-999',
  'bytes=0-1,3-4,6-7,9-10,12-13,15-16,18-19,21-22',
  'bytes=0-1,3-4,6-7,9-10,12-13,15-16,18-19,21-22,24-25',
  'bytes=0-1,3-4,6-7,9-10,12-13,15-16,18-19,21-22,24-25,alpha',
];

interface Case {
  name: string;
  headers: (etag: string) => Record<string, string>;
}

/** A case where the service (RFC 9110) and nginx answer differently, with both statuses documented. */
interface Difference extends Case {
  nginx: number;
  service: number;
}

const CONDITIONALS: Case[] = [
  { name: 'If-Match equal', headers: (e) => ({ 'If-Match': e }) },
  { name: 'If-Match in a list', headers: (e) => ({ 'If-Match': `"x", ${e}` }) },
  { name: 'If-Match *', headers: () => ({ 'If-Match': '*' }) },
  { name: 'If-Match weak', headers: (e) => ({ 'If-Match': `W/${e}` }) },
  { name: 'If-Match other', headers: () => ({ 'If-Match': '"x"' }) },
  { name: 'If-Match empty', headers: () => ({ 'If-Match': '' }) },
  { name: 'If-Match other + Range', headers: () => ({ 'If-Match': '"x"', Range: 'bytes=0-4' }) },
  { name: 'If-Match other + unsatisfiable Range', headers: () => ({ 'If-Match': '"x"', Range: 'bytes=5000-' }) },
  { name: 'If-Match equal + Range', headers: (e) => ({ 'If-Match': e, Range: 'bytes=0-4' }) },
  { name: 'If-Match equal + multipart Range', headers: (e) => ({ 'If-Match': e, Range: 'bytes=0-4,10-14' }) },
  { name: 'If-Unmodified-Since equal', headers: () => ({ 'If-Unmodified-Since': LM }) },
  { name: 'If-Unmodified-Since later', headers: () => ({ 'If-Unmodified-Since': LATER }) },
  { name: 'If-Unmodified-Since earlier', headers: () => ({ 'If-Unmodified-Since': EARLIER }) },
  { name: 'If-Unmodified-Since earlier + Range', headers: () => ({ 'If-Unmodified-Since': EARLIER, Range: 'bytes=0-4' }) },
  { name: 'If-Unmodified-Since earlier, RFC 850', headers: () => ({ 'If-Unmodified-Since': 'Sunday, 31-Dec-23 23:59:59 GMT' }) },
  { name: 'If-Unmodified-Since later, asctime', headers: () => ({ 'If-Unmodified-Since': 'Tue Jan  2 00:00:00 2024' }) },
  // Not an HTTP-date, so ignored by the service; nginx reads it as a later date: both pass.
  { name: 'If-Unmodified-Since later, UTC', headers: () => ({ 'If-Unmodified-Since': 'Tue, 02 Jan 2024 00:00:00 UTC' }) },
  { name: 'If-Match other + If-Unmodified-Since later', headers: () => ({ 'If-Match': '"x"', 'If-Unmodified-Since': LATER }) },
  { name: 'If-None-Match equal', headers: (e) => ({ 'If-None-Match': e }) },
  { name: 'If-None-Match weak', headers: (e) => ({ 'If-None-Match': `W/${e}` }) },
  { name: 'If-None-Match in a list', headers: (e) => ({ 'If-None-Match': `"x", ${e}` }) },
  { name: 'If-None-Match *', headers: () => ({ 'If-None-Match': '*' }) },
  { name: 'If-None-Match other', headers: () => ({ 'If-None-Match': '"x"' }) },
  { name: 'If-None-Match equal + Range', headers: (e) => ({ 'If-None-Match': e, Range: 'bytes=0-4' }) },
  { name: 'If-None-Match equal + If-Modified-Since equal', headers: (e) => ({ 'If-None-Match': e, 'If-Modified-Since': LM }) },
  { name: 'If-None-Match other + If-Modified-Since equal', headers: () => ({ 'If-None-Match': '"x"', 'If-Modified-Since': LM }) },
  { name: 'If-Match other + If-None-Match equal', headers: (e) => ({ 'If-Match': '"x"', 'If-None-Match': e }) },
  { name: 'If-Match equal + If-None-Match equal', headers: (e) => ({ 'If-Match': e, 'If-None-Match': e }) },
  { name: 'If-Modified-Since equal', headers: () => ({ 'If-Modified-Since': LM }) },
  { name: 'If-Modified-Since equal, RFC 850', headers: () => ({ 'If-Modified-Since': 'Monday, 01-Jan-24 00:00:00 GMT' }) },
  { name: 'If-Modified-Since equal, asctime', headers: () => ({ 'If-Modified-Since': 'Mon Jan  1 00:00:00 2024' }) },
  { name: 'If-Modified-Since earlier', headers: () => ({ 'If-Modified-Since': EARLIER }) },
  { name: 'If-Modified-Since later (exact match only)', headers: () => ({ 'If-Modified-Since': LATER }) },
  { name: 'If-Modified-Since ISO date (ignored)', headers: () => ({ 'If-Modified-Since': '2024-06-01T00:00:00Z' }) },
  { name: 'If-Modified-Since ISO date equal (ignored)', headers: () => ({ 'If-Modified-Since': '2024-01-01T00:00:00Z' }) },
  { name: 'If-Modified-Since a number (ignored)', headers: () => ({ 'If-Modified-Since': '1704067200' }) },
  { name: 'If-Modified-Since equal + Range', headers: () => ({ 'If-Modified-Since': LM, Range: 'bytes=0-4' }) },
  { name: 'If-Range strong equal', headers: (e) => ({ Range: 'bytes=0-4', 'If-Range': e }) },
  { name: 'If-Range strong equal + multipart', headers: (e) => ({ Range: 'bytes=0-4,10-14', 'If-Range': e }) },
  { name: 'If-Range strong equal + malformed Range', headers: (e) => ({ Range: 'bytes=alpha', 'If-Range': e }) },
  { name: 'If-Range strong equal + unsatisfiable Range', headers: (e) => ({ Range: 'bytes=5000-', 'If-Range': e }) },
  { name: 'If-Range weak', headers: (e) => ({ Range: 'bytes=0-4', 'If-Range': `W/${e}` }) },
  { name: 'If-Range other', headers: () => ({ Range: 'bytes=0-4', 'If-Range': '"x"' }) },
  { name: 'If-Range other + malformed Range', headers: () => ({ Range: 'bytes=alpha', 'If-Range': '"x"' }) },
  { name: 'If-Range other + unsatisfiable Range', headers: () => ({ Range: 'bytes=5000-', 'If-Range': '"x"' }) },
  { name: 'If-Range unquoted tag', headers: (e) => ({ Range: 'bytes=0-4', 'If-Range': e.slice(1, -1) }) },
  { name: 'If-Range date equal', headers: () => ({ Range: 'bytes=0-4', 'If-Range': LM }) },
  { name: 'If-Range date equal, RFC 850', headers: () => ({ Range: 'bytes=0-4', 'If-Range': 'Monday, 01-Jan-24 00:00:00 GMT' }) },
  { name: 'If-Range date equal, asctime', headers: () => ({ Range: 'bytes=0-4', 'If-Range': 'Mon Jan  1 00:00:00 2024' }) },
  { name: 'If-Range date earlier', headers: () => ({ Range: 'bytes=0-4', 'If-Range': EARLIER }) },
  { name: 'If-Range date later', headers: () => ({ Range: 'bytes=0-4', 'If-Range': LATER }) },
  { name: 'If-Range ISO date', headers: () => ({ Range: 'bytes=0-4', 'If-Range': '2024-01-01T00:00:00Z' }) },
  { name: 'If-Range empty', headers: () => ({ Range: 'bytes=0-4', 'If-Range': '' }) },
  { name: 'If-Range without Range', headers: () => ({ 'If-Range': '"x"' }) },
];

// Where RFC 9110 (the service) and nginx part ways. Every one is nginx being stricter: a 412 where the
// RFC says to ignore the header, or a whole 200 where the RFC says 304; neither ever splices bytes.
const DIFFERENCES: Difference[] = [
  // RFC 9110 §13.1.4: If-Unmodified-Since that is not an HTTP-date is ignored; nginx fails it.
  { name: 'If-Unmodified-Since ISO date', headers: () => ({ 'If-Unmodified-Since': '2025-01-01T00:00:00Z' }), nginx: 412, service: 200 },
  { name: 'If-Unmodified-Since garbage', headers: () => ({ 'If-Unmodified-Since': 'yesterday' }), nginx: 412, service: 200 },
  { name: 'If-Unmodified-Since empty', headers: () => ({ 'If-Unmodified-Since': '' }), nginx: 412, service: 200 },
  {
    name: 'If-Unmodified-Since ISO date + Range',
    headers: () => ({ 'If-Unmodified-Since': '2025-01-01T00:00:00Z', Range: 'bytes=0-4' }),
    nginx: 412,
    service: 206,
  },
  // A date nginx's parser reads but that is no HTTP-date (zone other than GMT).
  {
    name: 'If-Modified-Since equal, UTC',
    headers: () => ({ 'If-Modified-Since': 'Mon, 01 Jan 2024 00:00:00 UTC' }),
    nginx: 304,
    service: 200,
  },
  {
    name: 'If-Range date equal, UTC',
    headers: () => ({ Range: 'bytes=0-4', 'If-Range': 'Mon, 01 Jan 2024 00:00:00 UTC' }),
    nginx: 206,
    service: 200,
  },
  // §13.2.2 step 2: If-Unmodified-Since is evaluated only when If-Match is absent; nginx evaluates both.
  {
    name: 'If-Match equal + If-Unmodified-Since earlier',
    headers: (e) => ({ 'If-Match': e, 'If-Unmodified-Since': EARLIER }),
    nginx: 412,
    service: 200,
  },
  // §13.2.2 step 4: If-Modified-Since is ignored when If-None-Match is present; nginx needs both to hold.
  {
    name: 'If-None-Match equal + If-Modified-Since earlier',
    headers: (e) => ({ 'If-None-Match': e, 'If-Modified-Since': EARLIER }),
    nginx: 200,
    service: 304,
  },
  {
    name: 'If-None-Match equal + If-Modified-Since ISO',
    headers: (e) => ({ 'If-None-Match': e, 'If-Modified-Since': '2024-01-01T00:00:00Z' }),
    nginx: 200,
    service: 304,
  },
];

interface View {
  status: number;
  contentRange?: string | undefined;
  contentLength?: string | undefined;
  etag?: string | undefined;
  lastModified?: string | undefined;
  body?: string;
}

const digest = (b: Buffer) => createHash('sha256').update(b).digest('hex').slice(0, 16);

/** The parts of a multipart/byteranges body, as `range=digest`, whatever the boundary. */
function parts(res: RawResponse): string {
  const boundary = /boundary=("?)([^";]+)\1/.exec(String(res.headers['content-type']))?.[2] ?? '';
  const text = res.body.toString('latin1');
  return text
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((part) => {
      const [head = '', ...rest] = part.replace(/^\r\n/, '').split('\r\n\r\n');
      const range = /Content-Range: (.*)/i.exec(head)?.[1]?.trim();
      return `${range}=${digest(Buffer.from(rest.join('\r\n\r\n').replace(/\r\n$/, ''), 'latin1'))}`;
    })
    .join(' ');
}

/** What must agree: status, range, length (not for multipart: boundaries differ), validators, bytes. */
function view(res: RawResponse, method: string): View {
  const ok = res.status < 300 || res.status === 304;
  const multipart = String(res.headers['content-type']).startsWith('multipart/byteranges');
  const v: View = { status: res.status, contentRange: res.headers['content-range'] as string | undefined };
  if (!ok) return v;
  v.etag = res.headers.etag as string | undefined;
  v.lastModified = res.headers['last-modified'] as string | undefined;
  if (res.status === 304) return v;
  if (!multipart) v.contentLength = res.headers['content-length'] as string | undefined;
  if (method === 'GET') v.body = multipart ? parts(res) : digest(res.body);
  return v;
}

describe('Range and conditional requests: the service beside nginx on the same file', () => {
  let offloading: MediaFixture;
  let direct: MediaFixture;
  let frontOffload: RunningNginx;
  let frontDirect: RunningNginx;
  let reference: string;
  let spaDir: string;

  const link = (path: string) =>
    signDownloadUrl(keys, { path: `/members/${path}`, memberId: 1, expiresAt: Math.floor(Date.now() / 1000) + 86_400 });

  beforeAll(async () => {
    offloading = await startMediaFixture({ MEDIA_OFFLOAD: 'nginx' });
    direct = await startMediaFixture({ MEDIA_ROOT: offloading.root });
    for (const [path, data] of [
      [FILE, DATA],
      [EMPTY, Buffer.alloc(0)],
    ] as const) {
      const file = await put(offloading.root, path, data);
      await utimes(file, MTIME, MTIME);
    }
    spaDir = await mkdtemp(join(tmpdir(), 'spa-'));
    await writeFile(join(spaDir, 'index.html'), '<!doctype html>');
    const staticPort = await freePort();
    // The reference: a plain static server, configured as the /_protected/ location is.
    const extraHttp = `\nserver {\n    listen 127.0.0.1:${staticPort};\n    root ${offloading.root};\n    max_ranges 8;\n    etag on;\n}\n`;
    frontOffload = await startNginx({
      bffUrl: 'http://127.0.0.1:9',
      mediaUrl: offloading.media.url,
      spaDir,
      mediaRoot: offloading.root,
      extraHttp,
    });
    frontDirect = await startNginx({ bffUrl: 'http://127.0.0.1:9', mediaUrl: direct.media.url, spaDir, mediaRoot: offloading.root });
    reference = `http://127.0.0.1:${staticPort}`;
  });
  afterAll(async () => {
    await frontOffload?.stop();
    await frontDirect?.stop();
    await direct?.stop();
    await offloading?.stop();
    if (spaDir) await rm(spaDir, { recursive: true, force: true });
  });

  /** Statuses the reference gave, to show the comparison covered every kind of answer. */
  const seen = new Set<string>();

  async function fourWays(path: string, headers: Record<string, string>, method: string) {
    const [a, b, c, d] = await Promise.all([
      raw(reference, `/${path}`, headers, method),
      raw(direct.media.url, link(path), headers, method),
      raw(frontOffload.url, link(path), headers, method),
      raw(frontDirect.url, link(path), headers, method),
    ]);
    seen.add(`${a.status}${String(a.headers['content-type']).startsWith('multipart/') ? ' multipart' : ''}`);
    return { nginx: view(a, method), service: view(b, method), frontOffload: view(c, method), frontDirect: view(d, method) };
  }

  const referenceEtag = async () => String((await raw(reference, `/${FILE}`, {}, 'HEAD')).headers.etag);

  function expectAllAlike(got: Awaited<ReturnType<typeof fourWays>>): void {
    expect(got.service, 'service direct vs nginx').toEqual(got.nginx);
    expect(got.frontOffload, 'front door (offload) vs nginx').toEqual(got.nginx);
    expect(got.frontDirect, 'front door (no offload) vs service').toEqual(got.service);
  }

  it("the service sends nginx's ETag and Last-Modified", async () => {
    const [a, b] = await Promise.all([raw(reference, `/${FILE}`, {}, 'HEAD'), raw(direct.media.url, link(FILE), {}, 'HEAD')]);
    expect(a.headers.etag).toMatch(/^"[0-9a-f]+-3e8"$/);
    expect(b.headers.etag).toBe(a.headers.etag);
    expect(b.headers['last-modified']).toBe(a.headers['last-modified']);
    expect(b.headers['last-modified']).toBe(LM);
  });

  describe.each(['GET', 'HEAD'])('%s', (method) => {
    describe.each([
      ['a 1000-byte file', FILE],
      ['an empty file', EMPTY],
    ])('Range on %s: identical on all four', (_, path) => {
      it.each(RANGES.map((r) => [JSON.stringify(r), r]))('%s', async (_label, range) => {
        expectAllAlike(await fourWays(path, range === '' ? {} : { Range: range }, method));
      });
    });

    it.each(CONDITIONALS.map((c) => [c.name, c] as const))('conditional, identical on all four: %s', async (_, c) => {
      expectAllAlike(await fourWays(FILE, c.headers(await referenceEtag()), method));
    });

    it.each(DIFFERENCES.map((c) => [c.name, c] as const))('conditional, documented difference: %s', async (_, c) => {
      const got = await fourWays(FILE, c.headers(await referenceEtag()), method);
      expect(got.nginx.status, 'nginx').toBe(c.nginx);
      expect(got.frontOffload, 'front door (offload) vs nginx').toEqual(got.nginx);
      expect(got.service.status, 'service direct').toBe(c.service);
      expect(got.frontDirect, 'front door (no offload) vs service').toEqual(got.service);
    });
  });

  it('generated Range headers: the service answers as nginx (500 cases)', async () => {
    const header = rangeHeaders(SIZE);
    await fc.assert(
      fc.asyncProperty(header, fc.constantFrom(FILE, EMPTY), async (range, path) => {
        const [a, b] = await Promise.all([
          raw(reference, `/${path}`, { Range: range }),
          raw(direct.media.url, link(path), { Range: range }),
        ]);
        expect(view(b, 'GET'), JSON.stringify(range)).toEqual(view(a, 'GET'));
      }),
      { numRuns: 500, seed: 20261123 },
    );
  });

  it('compared every kind of answer', () => {
    expect([...seen].sort()).toEqual(['200', '206', '206 multipart', '304', '412', '416']);
  });

  describe('a download resumed on the other path (If-Range)', () => {
    const RESUMED = 'video/clip-1/resumed001.mp4';
    const BIG = Buffer.from(Array.from({ length: 100_000 }, (_, i) => (i * 13 + 5) % 256));
    beforeAll(async () => {
      await utimes(await put(offloading.root, RESUMED, BIG), MTIME, MTIME);
    });
    const paths = () => ({ direct: direct.media.url, offload: frontOffload.url });

    it.each([
      ['direct', 'offload'],
      ['offload', 'direct'],
    ] as const)('started %s, resumed %s with its ETag or date: 206 and the right bytes', async (from, to) => {
      const first = await raw(paths()[from], link(RESUMED), { Range: 'bytes=0-49999' });
      expect(first.status).toBe(206);
      for (const validator of [String(first.headers.etag), String(first.headers['last-modified'])]) {
        const rest = await raw(paths()[to], link(RESUMED), { Range: 'bytes=50000-', 'If-Range': validator });
        expect(rest.status, validator).toBe(206);
        expect(Buffer.concat([first.body, rest.body]).equals(BIG)).toBe(true);
      }
    });

    it('once the file changed, both paths send the whole new file (200) to the old validators', async () => {
      const first = await raw(direct.media.url, link(RESUMED), { Range: 'bytes=0-49999' });
      const changed = Buffer.from(BIG).reverse();
      await utimes(await put(offloading.root, RESUMED, changed), new Date(), new Date('2024-02-01T00:00:00Z'));
      for (const base of Object.values(paths())) {
        for (const validator of [String(first.headers.etag), String(first.headers['last-modified'])]) {
          const rest = await raw(base, link(RESUMED), { Range: 'bytes=50000-', 'If-Range': validator });
          expect(rest.status).toBe(200);
          expect(rest.body.equals(changed)).toBe(true);
        }
        const guarded = await raw(base, link(RESUMED), { Range: 'bytes=50000-', 'If-Match': String(first.headers.etag) });
        expect(guarded.status).toBe(412);
      }
    });
  });
});
