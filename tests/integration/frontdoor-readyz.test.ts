import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startNginx, type RunningNginx } from '../src/nginx';

// nginx's /readyz (compose's health check of the front door): ready only when both services answer
// their own /readyz through nginx's upstreams, and only for loopback callers.
const ready = { bff: 200, media: 200 };
let bff: Server;
let media: Server;
let nginx: RunningNginx;

function service(name: keyof typeof ready): Promise<Server> {
  const server = createServer((req, res) => {
    const status = req.url === '/readyz' ? ready[name] : 404;
    res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify({ service: name, status }));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const url = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

beforeAll(async () => {
  [bff, media] = await Promise.all([service('bff'), service('media')]);
  // On every address, so a non-loopback caller can be tried too.
  nginx = await startNginx({ bffUrl: url(bff), mediaUrl: url(media), spaDir: tmpdir(), mediaRoot: tmpdir(), host: '0.0.0.0' });
});
afterAll(async () => {
  await nginx?.stop();
  bff?.close();
  media?.close();
});

const readyz = () => fetch(`http://127.0.0.1:${nginx.port}/readyz`);

describe("the front door's /readyz", () => {
  it('answers 200 with the media service readiness when both services are ready', async () => {
    Object.assign(ready, { bff: 200, media: 200 });
    const res = await readyz();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ service: 'media', status: 200 });
  });

  it('is not ready when the bff is not ready or not there', async () => {
    Object.assign(ready, { bff: 503, media: 200 });
    expect((await readyz()).status).toBeGreaterThanOrEqual(500);
    Object.assign(ready, { bff: 200 });
    const dead = await freePort();
    const lonely = await startNginx({ bffUrl: `http://127.0.0.1:${dead}`, mediaUrl: url(media), spaDir: tmpdir(), mediaRoot: tmpdir() });
    try {
      expect((await fetch(`${lonely.url}/readyz`)).status).toBeGreaterThanOrEqual(500);
    } finally {
      await lonely.stop();
    }
  });

  it('is not ready when the media service is not ready', async () => {
    Object.assign(ready, { bff: 200, media: 503 });
    expect((await readyz()).status).toBe(503);
    Object.assign(ready, { media: 200 });
  });

  it('refuses callers other than loopback', async () => {
    const own = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && i.family === 'IPv4' && !i.internal);
    expect(own, 'this test needs a non-loopback IPv4 address on the machine').toBeDefined();
    const res = await fetch(`http://${own!.address}:${nginx.port}/readyz`);
    expect(res.status).toBe(403);
  });
});
