import { utimes } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHttpDate } from './http-date';
import { RANGE_DATA, put, raw, startFixture } from '../test/helpers';
import type { Fixture } from '../test/helpers';

const MTIME = new Date('2024-01-01T00:00:00Z');
const SECONDS = MTIME.getTime() / 1000;
// nginx's ETag for this file: mtime and size in hex (checked against nginx in tests/integration).
const ETAG = '"65920080-3e8"';
const IMF = 'Mon, 01 Jan 2024 00:00:00 GMT';
const RFC850 = 'Monday, 01-Jan-24 00:00:00 GMT';
const ASCTIME = 'Mon Jan  1 00:00:00 2024';
const EARLIER = 'Sun, 31 Dec 2023 23:59:59 GMT';
const LATER = 'Tue, 02 Jan 2024 00:00:00 GMT';
const ISO_LATER = '2024-06-01T00:00:00Z';

describe('parseHttpDate', () => {
  it.each([
    [IMF, SECONDS],
    [RFC850, SECONDS],
    [ASCTIME, SECONDS],
    ['Sun, 06 Nov 1994 08:49:37 GMT', 784111777],
    ['Sunday, 06-Nov-94 08:49:37 GMT', 784111777],
    ['Sun Nov  6 08:49:37 1994', 784111777],
    ['Thu, 29 Feb 2024 12:00:00 GMT', 1709208000],
  ])('reads %s', (value, seconds) => expect(parseHttpDate(value, new Date('2026-01-01T00:00:00Z'))).toBe(seconds));

  it.each([
    '2024-01-01T00:00:00Z',
    '2024-01-01',
    '1704067200',
    'Mon, 1 Jan 2024 00:00:00 GMT',
    'Mon, 01 Jan 2024 00:00:00 gmt',
    'Mon, 01 Jan 2024 00:00:00 UTC',
    'Mon, 01 Jan 2024 00:00:00 +0000',
    'Mon, 01 jan 2024 00:00:00 GMT',
    'Mon, 01 Jan 2024 00:00:00 GMT junk',
    'Fri, 30 Feb 2024 00:00:00 GMT',
    'Mon, 01 Jan 2024 24:00:00 GMT',
    'Mon, 01 Jan 2024 00:60:00 GMT',
    'Mon,01 Jan 2024 00:00:00 GMT',
    '',
  ])('refuses %j', (value) => expect(parseHttpDate(value)).toBeNull());

  it('reads an RFC 850 two-digit year as at most 50 years ahead', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(parseHttpDate('Saturday, 01-Jan-77 00:00:00 GMT', now)).toBe(Date.UTC(1977, 0, 1) / 1000);
    expect(parseHttpDate('Thursday, 01-Jan-76 00:00:00 GMT', now)).toBe(Date.UTC(2076, 0, 1) / 1000);
    expect(parseHttpDate('Saturday, 01-Jan-50 00:00:00 GMT', now)).toBe(Date.UTC(2050, 0, 1) / 1000);
  });
});

describe('conditional requests (RFC 9110 §13.2.2 order, before Range)', () => {
  let fx: Fixture;
  const path = '/members/freephotos/cond/data.bin';
  const get = (headers: Record<string, string>, method = 'GET') => raw(fx.media.url, path, headers, method);

  beforeAll(async () => {
    fx = await startFixture();
    const file = await put(fx.root, 'freephotos/cond/data.bin', RANGE_DATA);
    await utimes(file, MTIME, MTIME);
  });
  afterAll(() => fx.stop());

  it("sends nginx's ETag for the file and its Last-Modified", async () => {
    const res = await get({});
    expect(res.headers.etag).toBe(ETAG);
    expect(res.headers['last-modified']).toBe(IMF);
  });

  type Row = [string, Record<string, string>, number];
  const rows: Row[] = [
    // If-Match: strong comparison; `*` matches any existing file.
    ['If-Match equal', { 'If-Match': ETAG }, 200],
    ['If-Match in a list', { 'If-Match': `"x", ${ETAG}` }, 200],
    ['If-Match *', { 'If-Match': '*' }, 200],
    ['If-Match weak', { 'If-Match': `W/${ETAG}` }, 412],
    ['If-Match other', { 'If-Match': '"x"' }, 412],
    ['If-Match empty', { 'If-Match': '' }, 412],
    ['If-Match other + Range', { 'If-Match': '"x"', Range: 'bytes=0-4' }, 412],
    ['If-Match other + unsatisfiable Range', { 'If-Match': '"x"', Range: 'bytes=5000-' }, 412],
    ['If-Match equal + Range', { 'If-Match': ETAG, Range: 'bytes=0-4' }, 206],
    // If-Unmodified-Since: only when If-Match is absent, only a valid HTTP-date.
    ['If-Unmodified-Since equal', { 'If-Unmodified-Since': IMF }, 200],
    ['If-Unmodified-Since later', { 'If-Unmodified-Since': LATER }, 200],
    ['If-Unmodified-Since earlier', { 'If-Unmodified-Since': EARLIER }, 412],
    ['If-Unmodified-Since earlier + Range', { 'If-Unmodified-Since': EARLIER, Range: 'bytes=0-4' }, 412],
    ['If-Unmodified-Since earlier, RFC 850', { 'If-Unmodified-Since': 'Sunday, 31-Dec-23 23:59:59 GMT' }, 412],
    ['If-Unmodified-Since ISO (ignored)', { 'If-Unmodified-Since': '2023-01-01T00:00:00Z' }, 200],
    ['If-Unmodified-Since garbage (ignored)', { 'If-Unmodified-Since': 'yesterday' }, 200],
    ['If-Match equal + If-Unmodified-Since earlier (ignored)', { 'If-Match': ETAG, 'If-Unmodified-Since': EARLIER }, 200],
    ['If-Match other + If-Unmodified-Since later', { 'If-Match': '"x"', 'If-Unmodified-Since': LATER }, 412],
    // If-None-Match: weak comparison; then If-Modified-Since, only when If-None-Match is absent.
    ['If-None-Match equal', { 'If-None-Match': ETAG }, 304],
    ['If-None-Match weak', { 'If-None-Match': `W/${ETAG}` }, 304],
    ['If-None-Match *', { 'If-None-Match': '*' }, 304],
    ['If-None-Match other', { 'If-None-Match': '"x"' }, 200],
    ['If-None-Match equal + Range', { 'If-None-Match': ETAG, Range: 'bytes=0-4' }, 304],
    ['If-None-Match equal + If-Modified-Since earlier (ignored)', { 'If-None-Match': ETAG, 'If-Modified-Since': EARLIER }, 304],
    ['If-None-Match other + If-Modified-Since equal (ignored)', { 'If-None-Match': '"x"', 'If-Modified-Since': IMF }, 200],
    ['If-Match other + If-None-Match equal', { 'If-Match': '"x"', 'If-None-Match': ETAG }, 412],
    ['If-Modified-Since equal', { 'If-Modified-Since': IMF }, 304],
    ['If-Modified-Since equal, RFC 850', { 'If-Modified-Since': RFC850 }, 304],
    ['If-Modified-Since equal, asctime', { 'If-Modified-Since': ASCTIME }, 304],
    ['If-Modified-Since earlier', { 'If-Modified-Since': EARLIER }, 200],
    ['If-Modified-Since later (exact match only, as nginx)', { 'If-Modified-Since': LATER }, 200],
    ['If-Modified-Since ISO (ignored)', { 'If-Modified-Since': ISO_LATER }, 200],
    ['If-Modified-Since number (ignored)', { 'If-Modified-Since': String(SECONDS + 10) }, 200],
    // If-Range: strong ETag or the exact date, in any of the three HTTP-date forms.
    ['If-Range equal', { Range: 'bytes=0-4', 'If-Range': ETAG }, 206],
    ['If-Range weak', { Range: 'bytes=0-4', 'If-Range': `W/${ETAG}` }, 200],
    ['If-Range other', { Range: 'bytes=0-4', 'If-Range': '"x"' }, 200],
    ['If-Range date', { Range: 'bytes=0-4', 'If-Range': IMF }, 206],
    ['If-Range date, RFC 850', { Range: 'bytes=0-4', 'If-Range': RFC850 }, 206],
    ['If-Range date, asctime', { Range: 'bytes=0-4', 'If-Range': ASCTIME }, 206],
    ['If-Range later date', { Range: 'bytes=0-4', 'If-Range': LATER }, 200],
    ['If-Range ISO date', { Range: 'bytes=0-4', 'If-Range': '2024-01-01T00:00:00Z' }, 200],
    ['If-Range empty', { Range: 'bytes=0-4', 'If-Range': '' }, 200],
    ['If-Range other + malformed Range', { Range: 'bytes=alpha', 'If-Range': '"x"' }, 200],
  ];

  describe.each(['GET', 'HEAD'])('%s', (method) => {
    it.each(rows)('%s', async (_, headers, status) => {
      const res = await get(headers, method);
      expect(res.status).toBe(status);
      if (status === 412) {
        expect(res.headers.etag).toBeUndefined();
        if (method === 'GET') expect(JSON.parse(res.body.toString()).error.code).toBe('precondition_failed');
      }
      if (status === 304) {
        expect(res.body.length).toBe(0);
        expect(res.headers.etag).toBe(ETAG);
      }
      if (status === 206) expect(res.headers['content-range']).toBe('bytes 0-4/1000');
      if (status === 200 && method === 'GET') expect(res.body.equals(RANGE_DATA)).toBe(true);
    });
  });
});
