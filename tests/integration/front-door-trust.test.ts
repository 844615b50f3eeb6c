import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKnex } from '@media-site/db';
import { DEMO_MEMBER } from '@media-site/ops';
import { addressListVars, brandVars, SITE_LOGO_MAX_BYTES } from '../../scripts/lib/nginx';
import { repoRoot } from '../../scripts/lib/site';
import { startNginx, type RunningNginx } from '../src/nginx';
import { startStack, type Stack } from '../src/stack';

// Who nginx believes, through the repo's own config: the client's address and scheme only from a
// configured proxy in front (FRONT_TRUSTED_PROXIES), and provider webhooks only from the provider's
// addresses (WEBHOOK_ALLOWED_IPS). Every local address is loopback, so a client picks its own
// source address (127.0.0.2, 127.0.0.3) and plays a different host.

const PROVIDER_ADDRESS = '64.38.240.17';
const UNTRUSTED_PEER = '127.0.0.2';
const TLS_PROXY = '127.0.0.3';
/** The operator console's one allowed client behind the TLS proxy (ADMIN_ALLOWED_IPS). */
const ADMIN_CLIENT = '203.0.113.7';
const NGINX_REFUSAL = 'Webhooks are accepted from the card provider addresses only.';
const PROXY_SECRET = randomBytes(32).toString('hex');

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function send(
  base: string,
  path: string,
  options: { from?: string; method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: hostname, port, path, method: options.method ?? 'GET', localAddress: options.from, headers: options.headers, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const cookiesOf = (res: Answer) => ([] as string[]).concat(res.headers['set-cookie'] ?? []);
const cookie = (res: Answer, name: string) => cookiesOf(res).find((c) => c.startsWith(`${name}=`)) ?? '';

function signIn(
  base: string,
  options: { from?: string; headers?: Record<string, string>; username?: string; password?: string },
): Promise<Answer> {
  return send(base, '/api/login', {
    method: 'POST',
    from: options.from,
    headers: { 'Content-Type': 'application/json', ...options.headers },
    body: JSON.stringify({ username: options.username ?? DEMO_MEMBER.username, password: options.password ?? DEMO_MEMBER.password }),
  });
}

const webhookQuery = 'clientAccnum=900000&clientSubacc=0&eventGroupType=Subscription&eventType=';
function webhook(
  base: string,
  path: string,
  eventType: string,
  options: { from: string; forwardedFor: string; headers?: Record<string, string> },
): Promise<Answer> {
  return send(base, `${path}?${webhookQuery}${eventType}`, {
    method: 'POST',
    from: options.from,
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': options.forwardedFor, ...options.headers },
    body: JSON.stringify({
      clientAccnum: 900000,
      clientSubacc: 0,
      transactionId: `${eventType}-${Date.now()}`,
      subscriptionId: '123456789012345678',
      nextRenewalDate: '2099-01-01',
    }),
  });
}

let stack: Stack;
/** The same services behind an nginx configured for a TLS proxy at TLS_PROXY, with a small login budget. */
let behindTls: RunningNginx;
let webhookEvents: () => Promise<number>;

beforeAll(async () => {
  // The bff accepts the provider's range beside the simulator's loopback, so a webhook that nginx
  // lets through is stored: what reaches the bff is what nginx decided.
  // nginx's webhook location vouches with WEBHOOK_PROXY_SECRET, made here as an operator would.
  stack = await startStack({
    frontDoor: 'nginx',
    env: { WEBHOOK_ALLOWED_IPS: '127.0.0.1,::1,64.38.240.0/24', WEBHOOK_PROXY_SECRET: PROXY_SECRET },
  });
  behindTls = await startNginx({
    bffUrl: stack.bffFrontUrl,
    mediaUrl: stack.mediaUrl,
    spaDir: join(repoRoot, 'frontend/dist'),
    mediaRoot: stack.mediaRoot,
    vars: {
      FRONT_TRUSTED_PROXIES: TLS_PROXY,
      LOGIN_RATE: '1r/m',
      LOGIN_BURST: '2',
      WEBHOOK_PROXY_SECRET: PROXY_SECRET,
      ADMIN_ALLOWED_IPS: `${ADMIN_CLIENT}, 192.0.2.128/25`,
    },
  });
  const knex = createKnex(stack.databaseUrl);
  webhookEvents = async () => Number((await knex('webhook_events').count({ n: '*' }).first())?.n);
  const close = stack.stop.bind(stack);
  stack.stop = async () => {
    await knex.destroy();
    await close();
  };
});
afterAll(async () => {
  await behindTls?.stop();
  await stack?.stop();
});

describe('nginx as the edge (no proxy in front, plain http)', () => {
  it('sets sid and media_token without Secure, whatever X-Forwarded-Proto the client sends', async () => {
    const res = await signIn(stack.url, { headers: { Origin: stack.url, 'X-Forwarded-Proto': 'https' } });
    expect(res.status, res.body).toBe(200);
    expect(cookie(res, 'sid')).toMatch(/^sid=.+; httponly/i);
    expect(cookie(res, 'media_token')).not.toBe('');
    for (const c of cookiesOf(res)) expect(c).not.toMatch(/; secure/i);
  });

  it.each([
    '/api/ccbill/webhook',
    '/API/CCBILL/WEBHOOK',
    '/api/ccbill/webhook/',
    '/api//ccbill/webhook',
    '/api/ccbill/%77ebhook',
    '/api/ccbill/./webhook',
  ])('refuses a webhook to %s from a non-provider peer claiming a provider address, before the bff', async (path) => {
    const before = await webhookEvents();
    const res = await webhook(stack.url, path, 'RenewalSuccess', { from: UNTRUSTED_PEER, forwardedFor: PROVIDER_ADDRESS });
    expect(res.status).toBe(403);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(JSON.parse(res.body)).toEqual({ error: { code: 'forbidden', message: NGINX_REFUSAL } });
    expect(await webhookEvents()).toBe(before);
  });
});

describe("webhook authority stays in nginx's webhook location (WEBHOOK_PROXY_SECRET)", () => {
  // 127.0.0.1 is an allowed webhook source here: any process on nginx's host connects to the bff
  // from there and claims a provider address.
  it("refuses a direct post to the bff from the front door's address with a forged X-Forwarded-For, storing nothing", async () => {
    const before = await webhookEvents();
    const attempts: Record<string, string>[] = [{}, { 'X-Webhook-Proxy-Secret': randomBytes(32).toString('hex') }];
    for (const headers of attempts) {
      const forged = await webhook(stack.bffUrl, '/api/ccbill/webhook', 'RenewalSuccess', {
        from: '127.0.0.1',
        forwardedFor: PROVIDER_ADDRESS,
        headers,
      });
      expect(forged.status, forged.body).toBe(403);
      expect(JSON.parse(forged.body)).toEqual({
        error: { code: 'forbidden', message: 'webhooks are accepted through the front door only' },
      });
    }
    expect(await webhookEvents()).toBe(before);
  });

  it('stores the same delivery through nginx, which replaces any copy of the header the client sent', async () => {
    const before = await webhookEvents();
    const relayed = await webhook(stack.url, '/api/ccbill/webhook', 'CustomerDataUpdate', {
      from: '127.0.0.1',
      forwardedFor: PROVIDER_ADDRESS,
      headers: { 'X-Webhook-Proxy-Secret': 'a-guess' },
    });
    expect(relayed.status, relayed.body).toBe(200);
    expect(JSON.parse(relayed.body)).toEqual({ status: 'stored' });
    expect(await webhookEvents()).toBe(before + 1);
  });
});

describe('npm start: the simulator delivers through the front door when WEBHOOK_PROXY_SECRET is set', () => {
  it('stores the webhook the simulator sends', async () => {
    const before = await webhookEvents();
    const res = await fetch(`${stack.providerUrl}/_sim/webhook`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        eventType: 'CustomerDataUpdate',
        fields: { transactionId: `sim-${Date.now()}`, subscriptionId: '123456789012345678' },
      }),
    });
    expect(await res.json()).toEqual({ status: 200 });
    expect(await webhookEvents()).toBe(before + 1);
  });
});

describe('behind a TLS proxy (FRONT_TRUSTED_PROXIES)', () => {
  const site = { Host: 'site.example' };

  it('sets Secure cookies when the trusted proxy says https', async () => {
    const res = await signIn(behindTls.url, {
      from: TLS_PROXY,
      headers: { ...site, Origin: 'https://site.example', 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': '198.51.100.10' },
    });
    expect(res.status, res.body).toBe(200);
    expect(cookie(res, 'sid')).toMatch(/; secure/i);
    expect(cookie(res, 'media_token')).toMatch(/; secure/i);
  });

  it('ignores the same header from any other peer', async () => {
    const headers = { ...site, 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': '198.51.100.11' };
    const res = await signIn(behindTls.url, { from: UNTRUSTED_PEER, headers: { ...headers, Origin: 'http://site.example' } });
    expect(res.status, res.body).toBe(200);
    for (const c of cookiesOf(res)) expect(c).not.toMatch(/; secure/i);
    // Nor does it make the https origin the site's own.
    expect((await signIn(behindTls.url, { from: UNTRUSTED_PEER, headers: { ...headers, Origin: 'https://site.example' } })).status).toBe(
      403,
    );
  });

  it('passes a provider webhook relayed by the trusted proxy, and refuses the same claim from anyone else', async () => {
    const before = await webhookEvents();
    const relayed = await webhook(behindTls.url, '/api/ccbill/webhook', 'CustomerDataUpdate', {
      from: TLS_PROXY,
      forwardedFor: PROVIDER_ADDRESS,
    });
    expect(relayed.status, relayed.body).toBe(200);
    expect(JSON.parse(relayed.body)).toEqual({ status: 'stored' });
    expect(await webhookEvents()).toBe(before + 1);
    const forged = await webhook(behindTls.url, '/api/ccbill/webhook', 'RenewalSuccess', {
      from: UNTRUSTED_PEER,
      forwardedFor: PROVIDER_ADDRESS,
    });
    expect(forged.status).toBe(403);
    expect(JSON.parse(forged.body).error.message).toBe(NGINX_REFUSAL);
    expect(await webhookEvents()).toBe(before + 1);
  });

  it("keys nginx's rate limits on the client the trusted proxy names", async () => {
    // An unknown account: the bff's own per-account budget stays out of the way.
    const attempt = (client: string) =>
      signIn(behindTls.url, {
        from: TLS_PROXY,
        username: 'nobody_here',
        password: 'wrong-password',
        headers: { ...site, Origin: 'https://site.example', 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': client },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 6 && !statuses.includes(429); i += 1) statuses.push((await attempt('198.51.100.20')).status);
    expect(statuses).toContain(429);
    // Another client behind the same proxy still has its budget.
    expect((await attempt('198.51.100.21')).status).toBe(401);
  });
});

describe('the operator console at the front door (ADMIN_ALLOWED_IPS)', () => {
  const paths = ['/admin', '/admin/', '/admin/members', '/admin.html', '/api/admin/me'];

  it('serves the console page at /admin and under it to everyone when the list is empty, never the member app', async () => {
    for (const path of paths.slice(0, 4)) {
      const res = await send(stack.url, path);
      expect(res.status, path).toBe(200);
      expect(res.body, path).toContain('id="admin-root"');
    }
    expect((await send(stack.url, '/api/admin/me', { headers: { 'Sec-Fetch-Site': 'same-origin' } })).status).toBe(401);
    expect((await send(stack.url, '/administrator')).body).not.toContain('admin-root');
  });

  it('answers 403 to a client address outside the list, by the address the trusted proxy forwards', async () => {
    for (const client of ['198.51.100.10', '192.0.2.1']) {
      for (const path of paths) {
        const res = await send(behindTls.url, path, { from: TLS_PROXY, headers: { 'X-Forwarded-For': client } });
        expect(res.status, `${client} ${path}`).toBe(403);
      }
    }
    for (const client of [ADMIN_CLIENT, '192.0.2.200']) {
      const page = await send(behindTls.url, '/admin/audit', { from: TLS_PROXY, headers: { 'X-Forwarded-For': client } });
      expect(page.status, client).toBe(200);
      const me = await send(behindTls.url, '/api/admin/me', { from: TLS_PROXY, headers: { 'X-Forwarded-For': client } });
      expect(me.status, client).toBe(401);
    }
    // An untrusted peer's X-Forwarded-For is not believed: its own address (loopback) is not on the list.
    const forged = await send(behindTls.url, '/admin', { from: UNTRUSTED_PEER, headers: { 'X-Forwarded-For': ADMIN_CLIENT } });
    expect(forged.status).toBe(403);
    // The member app is untouched by the list.
    expect((await send(behindTls.url, '/', { from: TLS_PROXY, headers: { 'X-Forwarded-For': '198.51.100.10' } })).status).toBe(200);
  });
});

describe('the image renders the same directives', () => {
  const entrypoint = join(repoRoot, 'docker/nginx-entrypoint.sh');
  const rendered = (env: Record<string, string>) =>
    execFileSync('sh', [entrypoint, '--print'], { env: { PATH: process.env.PATH, ...env }, encoding: 'utf8' });

  const logo = join(repoRoot, 'frontend/public/logo.svg');
  it.each([
    {
      FRONT_TRUSTED_PROXIES: '',
      WEBHOOK_ALLOWED_IPS: '64.38.212.0/24,64.38.215.0/24,64.38.240.0/24,64.38.241.0/24',
      SITE_NAME: 'Media Site',
      ADMIN_ALLOWED_IPS: '',
    },
    {
      FRONT_TRUSTED_PROXIES: '10.0.0.5, 10.0.1.0/24,fd00::7',
      WEBHOOK_ALLOWED_IPS: '127.0.0.1,::1',
      SITE_NAME: "Tom & Jerry's Studio",
      ADMIN_ALLOWED_IPS: '192.0.2.10,2001:db8::/32',
    },
  ])('for %j as scripts/lib/nginx.ts', (env) => {
    const vars = { ...addressListVars(env), ...brandVars(env.SITE_NAME, logo) };
    const lines = [
      'FRONT_REALIP_FROM',
      'FRONT_TRUSTED_GEO',
      'WEBHOOK_ALLOWED_GEO',
      'SITE_NAME_HTML',
      'SITE_LOGO_FILE',
      'SITE_LOGO_TYPE',
      'SITE_LOGO_URL',
      'ADMIN_ALLOWED_GEO',
    ];
    expect(rendered({ ...env, SITE_LOGO: logo })).toBe(lines.map((name) => `${vars[name]}\n`).join(''));
  });

  it('reads the logo type from its first bytes in both places, and refuses what is not an SVG, PNG or WebP', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'brand-'));
    const files = {
      'image/png': await sharp({ create: { width: 4, height: 4, channels: 3, background: '#c33' } })
        .png()
        .toBuffer(),
      'image/webp': await sharp({ create: { width: 4, height: 4, channels: 3, background: '#c33' } })
        .webp()
        .toBuffer(),
      'image/svg+xml': Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>'),
    };
    for (const [type, bytes] of Object.entries(files)) {
      const file = join(dir, type.replace('/', '-'));
      writeFileSync(file, bytes);
      expect(brandVars('Media Site', file).SITE_LOGO_TYPE).toBe(type);
      expect(rendered({ SITE_LOGO: file }).split('\n')[5]).toBe(type);
    }
    const refused: [string, Buffer, RegExp][] = [
      ['a script', Buffer.from('<html><script>alert(1)</script></html>'), /is not an SVG, PNG or WebP image/],
      [
        'a JPEG',
        await sharp({ create: { width: 4, height: 4, channels: 3, background: '#c33' } })
          .jpeg()
          .toBuffer(),
        /is not an SVG, PNG or WebP image/,
      ],
      ['over 256 KiB', Buffer.concat([Buffer.from('<svg'), Buffer.alloc(SITE_LOGO_MAX_BYTES)]), /a logo may be 262144 bytes at most/],
    ];
    for (const [name, bytes, reason] of refused) {
      const file = join(dir, name);
      writeFileSync(file, bytes);
      expect(() => brandVars('Media Site', file), name).toThrow(reason);
      expect(() => rendered({ SITE_LOGO: file }), name).toThrow(reason);
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(['Bad <b>name</b>', 'Price $5', 'x'.repeat(61), 'Back\\slash', 'a"quote'])('refuses SITE_NAME %j in both places', (name) => {
    expect(() => brandVars(name, logo)).toThrow(/SITE_NAME: .* must be 1-60 letters, digits, spaces or/);
    expect(() => rendered({ SITE_NAME: name, SITE_LOGO: logo })).toThrow(/SITE_NAME: .* must be 1-60 letters, digits, spaces or/);
  });

  it('refuses a range or a name in both places, naming the variable', () => {
    const cases: Record<string, string>[] = [
      { WEBHOOK_ALLOWED_IPS: '64.38.212.1-64.38.212.254' },
      { FRONT_TRUSTED_PROXIES: 'proxy.internal;' },
    ];
    for (const env of cases) {
      expect(() => addressListVars(env)).toThrow(new RegExp(`${Object.keys(env)[0]}: .* is not an address or CIDR`));
      expect(() => rendered(env)).toThrow(new RegExp(`${Object.keys(env)[0]}: .* is not an address or CIDR`));
    }
  });

  it('gives every template placeholder a value (Dockerfile ENV, the entrypoint or compose)', () => {
    const templates = [
      join(repoRoot, 'nginx/nginx.conf.template'),
      ...readdirSync(join(repoRoot, 'nginx/snippets')).map((f) => join(repoRoot, 'nginx/snippets', f)),
    ];
    const placeholders = new Set(
      templates.flatMap((t) => [...readFileSync(t, 'utf8').matchAll(/\$\{([A-Z][A-Z0-9_]*)\}/g)].map((m) => m[1])),
    );
    const dockerfile = readFileSync(join(repoRoot, 'docker/nginx.Dockerfile'), 'utf8');
    const env = dockerfile.slice(dockerfile.indexOf('\nENV '));
    const given = new Set([...env.matchAll(/^[ \t]*(?:ENV[ \t]+)?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]));
    for (const name of Object.keys(addressListVars({}))) given.add(name);
    for (const name of Object.keys(brandVars('Media Site', logo))) given.add(name);
    // Compose names its own services.
    for (const name of ['BFF_UPSTREAM', 'MEDIA_UPSTREAM']) given.add(name);
    expect([...placeholders].filter((p) => !given.has(p))).toEqual([]);
  });
});
