import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevProxy } from '../../scripts/lib/dev-proxy';
import { freePort } from '../../scripts/lib/process';

// The Node front door (npm start without nginx) vouches for webhooks as nginx's webhook location
// does: the secret on the webhook path only, and never a copy the client sent.

const SECRET = randomBytes(32).toString('hex');
let upstream: Server;
let seen: IncomingHttpHeaders[] = [];
let proxy: { url: string; close(): Promise<void> };

beforeAll(async () => {
  upstream = createServer((req, res) => {
    seen.push(req.headers);
    res.end('{}');
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const { port } = upstream.address() as { port: number };
  const bffUrl = `http://127.0.0.1:${port}`;
  proxy = await startDevProxy({ port: await freePort(), bffUrl, mediaUrl: bffUrl, spaDir: '/nonexistent', webhookProxySecret: SECRET });
});
afterAll(async () => {
  await proxy?.close();
  await new Promise((resolve) => upstream?.close(resolve));
});

describe('dev proxy: X-Webhook-Proxy-Secret', () => {
  it.each(['/api/ccbill/webhook?eventType=RenewalSuccess', '/api/CCBill/Webhook', '/api//ccbill/webhook'])(
    'adds it on %s, replacing the client copy',
    async (path) => {
      seen = [];
      await fetch(`${proxy.url}${path}`, { method: 'POST', headers: { 'X-Webhook-Proxy-Secret': 'a-guess' }, body: '{}' });
      expect(seen[0]?.['x-webhook-proxy-secret']).toBe(SECRET);
    },
  );

  it.each(['/api/login', '/api/updates/1'])('drops a client copy on %s', async (path) => {
    seen = [];
    await fetch(`${proxy.url}${path}`, { headers: { 'X-Webhook-Proxy-Secret': SECRET } });
    expect(seen[0]?.['x-webhook-proxy-secret']).toBeUndefined();
  });
});
