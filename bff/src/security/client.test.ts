import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Koa from 'koa';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAddressList } from './address-list';
import { frontDoorListener, trustProxies } from './client';

// supertest connects from 127.0.0.1: trusted when listed, any other peer when not.
function echo(trusted: string) {
  const app = new Koa();
  trustProxies(app, parseAddressList(trusted));
  app.use((ctx) => {
    ctx.body = { ip: ctx.ip, ips: ctx.ips, protocol: ctx.protocol, secure: ctx.secure, host: ctx.host };
  });
  return supertest(app.callback());
}

describe('trusted proxies: one rule behind ctx.ip, ctx.protocol and ctx.secure', () => {
  it('believes a trusted peer: the right-most X-Forwarded-For entry that is not a proxy, and its X-Forwarded-Proto', async () => {
    const res = await echo('127.0.0.1,10.0.0.5')
      .get('/')
      .set({ Host: 'site.example', 'X-Forwarded-For': '6.6.6.6, 203.0.113.9, 10.0.0.5', 'X-Forwarded-Proto': 'https' });
    expect(res.body).toMatchObject({ ip: '203.0.113.9', protocol: 'https', secure: true, host: 'site.example' });
    expect((await echo('127.0.0.1').get('/')).body).toMatchObject({ ip: '127.0.0.1', protocol: 'http', secure: false });
  });

  it('believes nothing forwarded from any other peer, and X-Forwarded-Host from nobody', async () => {
    const res = await echo('192.0.2.1')
      .get('/')
      .set({ Host: 'site.example', 'X-Forwarded-For': '64.38.212.7', 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'evil.example' });
    expect(res.body).toEqual({ ip: '127.0.0.1', ips: [], protocol: 'http', secure: false, host: 'site.example' });
    const trusted = await echo('127.0.0.1').get('/').set({ Host: 'site.example', 'X-Forwarded-Host': 'evil.example' });
    expect(trusted.body.host).toBe('site.example');
  });
});

describe("the front door's socket (BFF_FRONT_SOCKET)", () => {
  const app = new Koa();
  trustProxies(app, parseAddressList(''));
  app.use((ctx) => {
    ctx.body = { ip: ctx.ip, protocol: ctx.protocol };
  });
  let dir: string;
  let socket: Server;
  let port: Server;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'front-socket-'));
    socket = createServer(frontDoorListener(app.callback()));
    port = createServer(app.callback());
    await new Promise<void>((r) => socket.listen(join(dir, 'front.sock'), r));
    await new Promise<void>((r) => port.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => {
    await Promise.all([socket, port].map((s) => new Promise((r) => s.close(r))));
    rmSync(dir, { recursive: true, force: true });
  });

  const ask = (target: { socketPath: string } | { port: number }) =>
    new Promise<{ ip: string; protocol: string }>((resolve, reject) => {
      request({ ...target, path: '/', headers: { 'X-Forwarded-For': '6.6.6.6, 203.0.113.9', 'X-Forwarded-Proto': 'https' } }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve(JSON.parse(body) as { ip: string; protocol: string }));
      })
        .on('error', reject)
        .end();
    });

  it('believes what arrives on it with TRUSTED_PROXIES empty, and nothing forwarded on the TCP port', async () => {
    expect(await ask({ socketPath: join(dir, 'front.sock') })).toEqual({ ip: '203.0.113.9', protocol: 'https' });
    expect(await ask({ port: (port.address() as AddressInfo).port })).toEqual({ ip: '127.0.0.1', protocol: 'http' });
  });
});
