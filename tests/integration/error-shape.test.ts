import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa, { type Context } from 'koa';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@media-site/contracts/errors';
import { errorMiddleware as bffErrors } from '@media-site/bff/errors';
import { errorMiddleware as mediaErrors } from '@media-site/media-service/errors';

// One error answer end to end: the bff and the media service answer the same failure with the same
// status, the headers the error carries and `{ "error": { "code", "message" } }`.
const FAILURES: Record<string, (ctx: Context) => void> = {
  '/app-error': () => {
    throw new AppError('busy', 'Too many at once; retry shortly', { 'Retry-After': '2' });
  },
  // An http-errors error, as koa's ctx.throw and routers raise them, with its own headers.
  '/thrown': (ctx) => ctx.throw(401, 'Sign in first', { headers: { 'WWW-Authenticate': 'Bearer realm="media"' } }),
  '/unknown': () => {
    throw new Error('a bug: its text stays in the log');
  },
  // A stream that failed after its head was sent: no status or JSON body can follow.
  '/mid-send': (ctx) => {
    ctx.res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
    ctx.res.write('partial');
    throw new Error('read failed mid-send');
  },
};

async function serve(middleware: typeof bffErrors): Promise<{ server: Server; base: string }> {
  const app = new Koa();
  app.silent = true;
  app.use(middleware(pino({ level: 'silent' })));
  app.use((ctx) => FAILURES[ctx.path]?.(ctx));
  const server = createServer(app.callback()).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function ask(base: string, path: string) {
  const res = await fetch(base + path);
  return {
    status: res.status,
    retryAfter: res.headers.get('retry-after'),
    authenticate: res.headers.get('www-authenticate'),
    body: await res.text(),
  };
}

describe('one error shape from the bff and the media service', () => {
  const services: Record<string, { server: Server; base: string }> = {};
  beforeAll(async () => {
    services.bff = await serve(bffErrors);
    services.media = await serve(mediaErrors);
  });
  afterAll(() => {
    for (const { server } of Object.values(services)) server.close();
  });

  it.each(['bff', 'media'])('%s: an AppError keeps its headers (Retry-After)', async (name) => {
    const answer = await ask(services[name]!.base, '/app-error');
    expect(answer).toMatchObject({ status: 503, retryAfter: '2' });
    expect(JSON.parse(answer.body)).toEqual({ error: { code: 'busy', message: 'Too many at once; retry shortly' } });
  });

  it.each(['bff', 'media'])('%s: a thrown http error keeps its status and headers (WWW-Authenticate)', async (name) => {
    const answer = await ask(services[name]!.base, '/thrown');
    expect(answer).toMatchObject({ status: 401, authenticate: 'Bearer realm="media"' });
    expect(JSON.parse(answer.body)).toEqual({ error: { code: 'unauthenticated', message: 'Sign in first' } });
  });

  it.each(['bff', 'media'])('%s: a head already sent gets no error body', async (name) => {
    const res = await fetch(services[name]!.base + '/mid-send');
    expect(res.status).toBe(200);
    // The connection is cut after the partial bytes: the answer is seen as truncated, never as
    // complete, and nothing (a JSON error, koa's "OK") is appended to it.
    await expect(res.text()).rejects.toThrow();
  });

  it('both answer every failure with the same status, headers and body', async () => {
    for (const path of ['/app-error', '/thrown', '/unknown']) {
      expect(await ask(services.media!.base, path), path).toEqual(await ask(services.bff!.base, path));
    }
  });
});
