import Koa from 'koa';
import pino from 'pino';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { errorMiddleware } from '../errors';
import { parseAddressList } from './address-list';
import { trustProxies } from './client';
import { requireSameOrigin } from './origin';

function guarded(allowedOrigins: string[] = [], trustedProxies = '127.0.0.1,::1') {
  const app = new Koa();
  app.silent = true;
  trustProxies(app, parseAddressList(trustedProxies));
  app.use(errorMiddleware(pino({ level: 'silent' })));
  app.use(requireSameOrigin(allowedOrigins));
  app.use((ctx) => {
    ctx.body = { ok: true };
  });
  return supertest(app.callback());
}

/** The status of a POST to the guarded app with these headers. */
async function postStatus(headers: Record<string, string>, ...app: Parameters<typeof guarded>): Promise<number> {
  return (
    await guarded(...app)
      .post('/')
      .set(headers)
  ).status;
}

// The site as the browser sees it: the Host it sent, which the front door passes on unchanged.
const SITE = { Host: '127.0.0.1:8080' };

describe('same-origin guard', () => {
  it('accepts the site itself: scheme, host and port', async () => {
    expect(await postStatus({ ...SITE, Origin: 'http://127.0.0.1:8080' })).toBe(200);
    expect(await postStatus({ ...SITE, Referer: 'http://127.0.0.1:8080/ccbill' })).toBe(200);
    expect(await postStatus({ Host: 'Example.COM', Origin: 'http://example.com' })).toBe(200);
    expect(await postStatus({ Host: 'example.com:80', Origin: 'http://example.com' })).toBe(200);
  });

  it.each([
    ['another port on the same host', 'http://127.0.0.1:9999'],
    ['the default port of the same host', 'http://127.0.0.1'],
    ['https on the same host and port', 'https://127.0.0.1:8080'],
    ['another host', 'http://evil.example:8080'],
    ['a look-alike prefix', 'http://127.0.0.1:8080.evil.example'],
    ['an opaque origin', 'null'],
  ])('refuses %s', async (_what, origin) => {
    const res = await guarded()
      .post('/')
      .set({ ...SITE, Origin: origin });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
  });

  it('refuses a Referer from another port, and a request with neither header', async () => {
    expect(await postStatus({ ...SITE, Referer: 'http://127.0.0.1:9999/ccbill' })).toBe(403);
    expect(await postStatus(SITE)).toBe(403);
  });

  it('takes https from a trusted proxy, so a TLS site matches its https origin', async () => {
    const behindTls = { Host: 'site.example', 'X-Forwarded-Proto': 'https' };
    expect(await postStatus({ ...behindTls, Origin: 'https://site.example' })).toBe(200);
    expect(await postStatus({ ...behindTls, Origin: 'http://site.example' })).toBe(403);
  });

  it('ignores X-Forwarded-Proto and X-Forwarded-Host from a peer that is not a trusted proxy', async () => {
    const untrusted = (headers: Record<string, string>) => postStatus(headers, [], '192.0.2.1');
    expect(await untrusted({ Host: 'site.example', 'X-Forwarded-Proto': 'https', Origin: 'https://site.example' })).toBe(403);
    expect(await untrusted({ Host: 'site.example', 'X-Forwarded-Proto': 'https', Origin: 'http://site.example' })).toBe(200);
    expect(await postStatus({ Host: 'site.example', 'X-Forwarded-Host': 'evil.example', Origin: 'http://evil.example' })).toBe(403);
  });

  it('accepts a configured origin only with its exact port', async () => {
    const configured = (origin: string) => postStatus({ ...SITE, Origin: origin }, ['https://shop.example:8443']);
    expect(await configured('https://shop.example:8443')).toBe(200);
    expect(await configured('https://shop.example')).toBe(403);
  });
});
