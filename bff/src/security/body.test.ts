import { request as httpRequest, type Server } from 'node:http';
import Koa from 'koa';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorMiddleware } from '../errors';
import { readBody } from './body';

// A real socket, not supertest: what matters is what happens to the connection after a refusal.
let server: Server;
let port = 0;

beforeAll(async () => {
  const app = new Koa();
  app.silent = true;
  app.use(errorMiddleware(pino({ level: 'silent' })));
  const json = readBody(1024);
  const jsonOrForm = readBody(1024, { form: true });
  app.use((ctx, next) => (ctx.path === '/form' ? jsonOrForm(ctx, next) : json(ctx, next)));
  app.use((ctx) => {
    ctx.body = { got: ctx.state.body };
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  port = (server.address() as { port: number }).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

function post(
  body: string,
  headers: Record<string, string> = {},
  path = '/',
): Promise<{ status: number; connection?: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method: 'POST', path, agent: false, headers: { 'Content-Type': 'application/json', ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('readBody (limit 1024 bytes)', () => {
  it('accepts a body at the limit', async () => {
    const body = JSON.stringify({ a: 'x'.repeat(1024 - 8) });
    expect(body.length).toBe(1024);
    expect((await post(body)).status).toBe(200);
  });

  it('refuses a longer one with 413 and closes the connection it left unread', async () => {
    const res = await post(JSON.stringify({ a: 'x'.repeat(5000) }));
    expect(res.status).toBe(413);
    expect(res.connection).toBe('close');
    expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'too_large' } });
  });

  it('refuses by Content-Length before reading, even when chunks would be small', async () => {
    const res = await post(JSON.stringify({ a: 'x'.repeat(2000) }));
    expect(res.status).toBe(413);
    const chunked = await post(JSON.stringify({ a: 'x'.repeat(2000) }), { 'Transfer-Encoding': 'chunked' });
    expect(chunked.status).toBe(413);
    expect(chunked.connection).toBe('close');
  });

  it('answers 400 for a body that is not JSON', async () => {
    expect((await post('{nope')).status).toBe(400);
  });

  it('reads an empty body as {} whatever its type', async () => {
    const res = await post('', { 'Content-Type': '' });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ got: {} });
  });

  it('answers 415 for another type, a form where only JSON is read, or a compressed body', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', '']) {
      const res = await post('{"a":1}', { 'Content-Type': type });
      expect(res.status, type).toBe(415);
      expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'unsupported_media_type' } });
    }
    expect((await post('{"a":1}', { 'Content-Encoding': 'gzip' })).status).toBe(415);
  });

  it('reads a form where the route accepts one', async () => {
    const res = await post('a=1&b=two', { 'Content-Type': 'application/x-www-form-urlencoded' }, '/form');
    expect(JSON.parse(res.body)).toEqual({ got: { a: '1', b: 'two' } });
    expect(JSON.parse((await post('{"a":1}', {}, '/form')).body)).toEqual({ got: { a: 1 } });
  });
});
