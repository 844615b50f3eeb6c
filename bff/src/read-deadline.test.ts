import Koa from 'koa';
import pino from 'pino';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { errorMiddleware } from './errors';
import { readDeadline } from './read-deadline';

const never = () => new Promise<void>(() => {});

function app(deadlineMs: number) {
  const koa = new Koa();
  koa.silent = true;
  koa.use(errorMiddleware(pino({ level: 'silent' })));
  koa.use(readDeadline(deadlineMs));
  koa.use(async (ctx) => {
    if (ctx.path === '/api/fast') ctx.body = { ok: true };
    else if (ctx.path === '/api/slow-post') {
      await new Promise((r) => setTimeout(r, 300));
      ctx.body = { posted: true };
    } else await never(); // a query on a frozen database
  });
  return koa.callback();
}

describe('readDeadline', () => {
  it('answers a hung read with 503 JSON at the deadline', async () => {
    const res = await request(app(150)).get('/api/photos/1');
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('unavailable');
  });

  it('covers /readyz too', async () => {
    expect((await request(app(150)).get('/readyz')).status).toBe(503);
  });

  it('leaves fast reads alone', async () => {
    const res = await request(app(150)).get('/api/fast');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
  });

  it('never cuts a state-changing request (payments wait on the provider)', async () => {
    const res = await request(app(100)).post('/api/slow-post');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ posted: true });
  });
});
