import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { RANGE_DATA, put, raw, startFixture } from '../test/helpers';
import type { Fixture, RawResponse } from '../test/helpers';

const SIZE = RANGE_DATA.length;
const URL_PATH = '/members/freephotos/range/data.bin';

type Expect = { status: 200 } | { status: 206; ranges: Array<[number, number]> } | { status: 416 };

// Modelled on Go's ServeFileRangeTests, nginx-tests range.t and pillarjs/send; the file is 1000 bytes.
// The expected answers are nginx's own (tests/integration/media-http-parity.test.ts checks the two agree).
const CASES: Array<[string | undefined, Expect]> = [
  [undefined, { status: 200 }],
  ['bytes=0-4', { status: 206, ranges: [[0, 4]] }],
  ['bytes=2-', { status: 206, ranges: [[2, 999]] }],
  ['bytes=-5', { status: 206, ranges: [[995, 999]] }],
  ['bytes=-1', { status: 206, ranges: [[999, 999]] }],
  ['bytes=3-3', { status: 206, ranges: [[3, 3]] }],
  ['bytes=0-0', { status: 206, ranges: [[0, 0]] }],
  ['bytes=999-999', { status: 206, ranges: [[999, 999]] }],
  ['bytes=999-', { status: 206, ranges: [[999, 999]] }],
  ['bytes=5-1000', { status: 206, ranges: [[5, 999]] }],
  ['bytes=990-2000', { status: 206, ranges: [[990, 999]] }],
  ['bytes=0-9223372036854775807', { status: 206, ranges: [[0, 999]] }],
  ['bytes=-9223372036854775807', { status: 206, ranges: [[0, 999]] }],
  ['bytes=-2000', { status: 206, ranges: [[0, 999]] }],
  ['bytes=0-', { status: 206, ranges: [[0, 999]] }],
  ['bytes=00-4', { status: 206, ranges: [[0, 4]] }],
  ['bytes= 0-4', { status: 206, ranges: [[0, 4]] }],
  ['bytes= 0 - 4', { status: 206, ranges: [[0, 4]] }],
  ['Bytes=0-4', { status: 206, ranges: [[0, 4]] }],
  ['bytes=1000-', { status: 416 }],
  ['bytes=1000-1005', { status: 416 }],
  ['bytes=2000-3000', { status: 416 }],
  ['bytes=-0', { status: 416 }],
  ['bytes=5-1', { status: 416 }],
  ['bytes=1000-,2000-', { status: 416 }],
  // Syntax errors in a bytes= list: 416, as nginx (and Go).
  ['bytes=alpha', { status: 416 }],
  ['bytes=--2', { status: 416 }],
  ['bytes=-', { status: 416 }],
  ['bytes=1.5-3', { status: 416 }],
  ['bytes=0x10-20', { status: 416 }],
  ['bytes=1-2-3', { status: 416 }],
  ['bytes=0-4,abc', { status: 416 }],
  ['bytes=0-4,', { status: 416 }],
  ['bytes=0-4,,6-9', { status: 416 }],
  ['bytes=0-4,\t10-14', { status: 416 }],
  ['bytes=0-9223372036854775808', { status: 416 }],
  ['bytes=-99999999999999999999', { status: 416 }],
  // Another unit, no bytes= prefix, or nothing after it: ignored.
  ['items=0-4', { status: 200 }],
  ['bytes =0-4', { status: 200 }],
  ['bytes=', { status: 200 }],
  ['0-4', { status: 200 }],
  ['bytes=0-4,1000-1005', { status: 206, ranges: [[0, 4]] }],
  ['bytes=5-1,0-4', { status: 206, ranges: [[0, 4]] }],
  [
    'bytes=0-4,10-14',
    {
      status: 206,
      ranges: [
        [0, 4],
        [10, 14],
      ],
    },
  ],
  [
    'bytes=0-4, 10-14',
    {
      status: 206,
      ranges: [
        [0, 4],
        [10, 14],
      ],
    },
  ],
  [
    'bytes=0-0,-1',
    {
      status: 206,
      ranges: [
        [0, 0],
        [999, 999],
      ],
    },
  ],
  [
    'bytes=0-499,500-999',
    {
      status: 206,
      ranges: [
        [0, 499],
        [500, 999],
      ],
    },
  ],
  [
    'bytes=10-14,0-4',
    {
      status: 206,
      ranges: [
        [10, 14],
        [0, 4],
      ],
    },
  ],
  [
    'bytes=0-1,3-4,6-7,9-10,12-13,15-16,18-19,21-22',
    {
      status: 206,
      ranges: [
        [0, 1],
        [3, 4],
        [6, 7],
        [9, 10],
        [12, 13],
        [15, 16],
        [18, 19],
        [21, 22],
      ],
    },
  ],
  // Nine ranges: past the cap, so the whole file.
  ['bytes=0-1,3-4,6-7,9-10,12-13,15-16,18-19,21-22,24-25', { status: 200 }],
  // Adding up past the file size ("probably an attack", Go and nginx): the whole file.
  ['bytes=0-999,0-999', { status: 200 }],
  ['bytes=0-600,400-999', { status: 200 }],
];

function parseMultipart(res: RawResponse): Array<{ range: string; type: string; body: Buffer }> {
  const boundary = /boundary=(\w+)/.exec(String(res.headers['content-type']))?.[1];
  expect(boundary).toBeDefined();
  const text = res.body.toString('latin1');
  const parts = text.split(`--${boundary}`).slice(1, -1);
  expect(text.endsWith(`\r\n--${boundary}--\r\n`)).toBe(true);
  return parts.map((part) => {
    const [head = '', ...rest] = part.replace(/^\r\n/, '').split('\r\n\r\n');
    const body = Buffer.from(rest.join('\r\n\r\n').replace(/\r\n$/, ''), 'latin1');
    const headers = Object.fromEntries(head.split('\r\n').map((l) => l.split(': ') as [string, string]));
    return { range: headers['Content-Range'] ?? '', type: headers['Content-Type'] ?? '', body };
  });
}

describe('Range requests on a 1000-byte file', () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await startFixture();
  });
  afterAll(() => fx.stop());

  it('has at least 30 cases', () => expect(CASES.length).toBeGreaterThanOrEqual(30));

  describe.each(['GET', 'HEAD'])('%s', (method) => {
    it.each(CASES)('Range: %s', async (range, want) => {
      const res = await raw(fx.media.url, URL_PATH, range === undefined ? {} : { Range: range }, method);
      const get = method === 'HEAD' ? await raw(fx.media.url, URL_PATH, range === undefined ? {} : { Range: range }) : res;
      expect(res.status).toBe(want.status);
      expect(res.headers['accept-ranges']).toBe('bytes');
      expect(res.headers['content-length']).toBe(String(get.body.length));
      if (method === 'HEAD') expect(res.body.length).toBe(0);
      if (want.status === 200) {
        expect(res.headers['content-range']).toBeUndefined();
        if (method === 'GET') expect(res.body.equals(RANGE_DATA)).toBe(true);
      } else if (want.status === 416) {
        expect(res.headers['content-range']).toBe(`bytes */${SIZE}`);
      } else if (want.ranges.length === 1) {
        const [[start, end]] = want.ranges as [[number, number]];
        expect(res.headers['content-range']).toBe(`bytes ${start}-${end}/${SIZE}`);
        if (method === 'GET') expect(res.body.equals(RANGE_DATA.subarray(start, end + 1))).toBe(true);
      } else {
        expect(String(res.headers['content-type'])).toMatch(/^multipart\/byteranges; boundary=/);
        if (method === 'GET') {
          const parts = parseMultipart(res);
          expect(parts.map((p) => p.range)).toEqual(want.ranges.map(([s, e]) => `bytes ${s}-${e}/${SIZE}`));
          for (const [i, [s, e]] of want.ranges.entries()) {
            expect(parts[i]?.body.equals(RANGE_DATA.subarray(s, e + 1))).toBe(true);
            expect(parts[i]?.type).toBe('application/octet-stream');
          }
        }
      }
    });
  });

  it('answers 200 with no body for a Range from 0 or a suffix on an empty file, 416 for any other (as nginx)', async () => {
    for (const range of ['bytes=0-4', 'bytes=0-', 'bytes=-5', 'bytes=-0']) {
      const res = await raw(fx.media.url, '/members/freephotos/range/empty.bin', { Range: range });
      expect(res.status, range).toBe(200);
      expect(res.headers['content-length']).toBe('0');
    }
    for (const range of ['bytes=5-10', 'bytes=alpha']) {
      const res = await raw(fx.media.url, '/members/freephotos/range/empty.bin', { Range: range });
      expect(res.status, range).toBe(416);
      expect(res.headers['content-range']).toBe('bytes */0');
    }
  });

  it('keeps a strong ETag while the file is unchanged, answers 304 to If-None-Match and If-Modified-Since', async () => {
    const a = await raw(fx.media.url, URL_PATH);
    const b = await raw(fx.media.url, URL_PATH);
    const etag = String(a.headers.etag);
    expect(etag).toMatch(/^"[0-9a-f-]+"$/);
    expect(b.headers.etag).toBe(etag);
    expect(a.headers['last-modified']).toBeDefined();
    const inm = await raw(fx.media.url, URL_PATH, { 'If-None-Match': `"other", ${etag}` });
    expect(inm.status).toBe(304);
    expect(inm.body.length).toBe(0);
    expect(inm.headers.etag).toBe(etag);
    const ims = await raw(fx.media.url, URL_PATH, { 'If-Modified-Since': String(a.headers['last-modified']) });
    expect(ims.status).toBe(304);
    const stale = await raw(fx.media.url, URL_PATH, { 'If-None-Match': '"stale"' });
    expect(stale.status).toBe(200);
  });

  describe('If-Range', () => {
    const path = '/members/freephotos/range/changing.bin';
    let file: string;
    beforeAll(async () => {
      file = await put(fx.root, 'freephotos/range/changing.bin', RANGE_DATA);
      await utimes(file, new Date('2024-01-01T00:00:00Z'), new Date('2024-01-01T00:00:00Z'));
    });

    it('applies the range on a matching strong ETag or exact date, not on a weak one', async () => {
      const first = await raw(fx.media.url, path);
      const etag = String(first.headers.etag);
      const date = String(first.headers['last-modified']);
      expect((await raw(fx.media.url, path, { Range: 'bytes=0-4', 'If-Range': etag })).status).toBe(206);
      expect((await raw(fx.media.url, path, { Range: 'bytes=0-4', 'If-Range': date })).status).toBe(206);
      expect((await raw(fx.media.url, path, { Range: 'bytes=0-4', 'If-Range': `W/${etag}` })).status).toBe(200);
      const earlier = new Date(Date.parse(date) - 1000).toUTCString();
      expect((await raw(fx.media.url, path, { Range: 'bytes=0-4', 'If-Range': earlier })).status).toBe(200);
    });

    it('sends the whole new file with 200 once the file changed', async () => {
      const before = await raw(fx.media.url, path);
      const etag = String(before.headers.etag);
      const date = String(before.headers['last-modified']);
      const changed = Buffer.from(RANGE_DATA).reverse();
      await put(fx.root, 'freephotos/range/changing.bin', changed);
      await utimes(join(fx.root, 'freephotos/range/changing.bin'), new Date(), new Date('2024-02-01T00:00:00Z'));
      for (const validator of [etag, date]) {
        const resumed = await raw(fx.media.url, path, { Range: 'bytes=500-', 'If-Range': validator });
        expect(resumed.status).toBe(200);
        expect(resumed.body.equals(changed)).toBe(true);
        expect(resumed.headers.etag).not.toBe(etag);
      }
    });
  });
});
