import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { errorMiddleware } from '../errors';
import { answer } from './send';
import type { Representation } from './send';
import type { ByteRange } from './range';
import { RANGE_DATA, raw } from '../test/helpers';

const ETAG = '"6b0425e3-3e8"';

// What answer() asks of a representation, request by request. koa-send, by comparison, opens the
// file for a HEAD and reads it in 64 KiB chunks to EOF (README, "koa-send").
describe('answer() reads only the bytes it sends', () => {
  const reads: ByteRange[] = [];
  let server: Server;
  let base: string;

  beforeAll(async () => {
    const representation: Representation = {
      size: RANGE_DATA.length,
      etag: ETAG,
      lastModified: new Date('2024-01-01T00:00:00Z'),
      type: 'application/octet-stream',
      read: (range) => {
        reads.push(range);
        return RANGE_DATA.subarray(range.start, range.end + 1);
      },
    };
    const app = new Koa();
    app.silent = true;
    app.use(errorMiddleware(pino({ level: 'silent' })));
    app.use((ctx) => answer(ctx, representation, { cacheControl: 'public, max-age=86400' }));
    server = createServer(app.callback()).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  beforeEach(() => {
    reads.length = 0;
  });

  it.each([
    ['the whole file', {}, 200, 1],
    ['a range', { Range: 'bytes=10-19' }, 206, 1],
    ['several ranges', { Range: 'bytes=0-4,10-14' }, 206, 2],
  ])('HEAD of %s reads nothing and states the length a GET sends', async (_, headers, status, getReads) => {
    const head = await raw(base, '/', headers, 'HEAD');
    expect(head.status).toBe(status);
    expect(head.body.length).toBe(0);
    expect(reads).toEqual([]);
    const get = await raw(base, '/', headers);
    expect(Number(head.headers['content-length'])).toBe(get.body.length);
    expect(reads.length).toBe(getReads);
  });

  it('a whole-file GET reads the file once, from 0 to its last byte', async () => {
    const res = await raw(base, '/');
    expect(res.body.equals(RANGE_DATA)).toBe(true);
    expect(reads).toEqual([{ start: 0, end: RANGE_DATA.length - 1 }]);
  });

  it('a range GET reads the range only', async () => {
    const res = await raw(base, '/', { Range: 'bytes=990-' });
    expect(res.status).toBe(206);
    expect(reads).toEqual([{ start: 990, end: 999 }]);
  });

  it.each([
    ['If-None-Match', { 'If-None-Match': ETAG }, 304],
    ['If-Modified-Since', { 'If-Modified-Since': 'Mon, 01 Jan 2024 00:00:00 GMT' }, 304],
    ['If-Match', { 'If-Match': '"other"' }, 412],
    ['If-Unmodified-Since', { 'If-Unmodified-Since': 'Sun, 31 Dec 2023 00:00:00 GMT' }, 412],
    ['Range past the end', { Range: 'bytes=1000-' }, 416],
  ])('%s answered %i without reading', async (_, headers, status) => {
    const res = await raw(base, '/', headers);
    expect(res.status).toBe(status);
    expect(reads).toEqual([]);
  });
});
