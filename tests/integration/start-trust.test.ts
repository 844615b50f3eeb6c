import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKnex } from '@media-site/db';
import { runOpsCaptured } from '@media-site/ops/cli';
import { startStack, type Stack } from '../src/stack';

// `npm start`: the bff believes X-Forwarded-For only from its own front door (nginx, or the Node
// proxy without nginx), never from whatever else connects to its port on this host. Every local
// address is loopback, so a client picks its source address (127.0.0.3, ...) to play another host.

const FORGED = '203.0.113.66';
const USERNAME_CHECKS_PER_MINUTE = 3;

interface Answer {
  status: number;
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
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

describe.each(['nginx', 'node'] as const)('npm start with the %s front door', (frontDoor) => {
  let stack: Stack;
  let knex: ReturnType<typeof createKnex>;

  beforeAll(async () => {
    stack = await startStack({ frontDoor, env: { RATE_LIMIT_USERNAME_PER_MINUTE: String(USERNAME_CHECKS_PER_MINUTE) } });
    knex = createKnex(stack.databaseUrl);
    const added = await runOpsCaptured(['admin', 'add', 'door_boss', '--role', 'owner'], { env: { USER: 'test' }, knex });
    expect(added.code, added.err).toBe(0);
  });
  afterAll(async () => {
    await knex?.destroy();
    await stack?.stop();
  });

  /** A failed console sign-in (a wrong code): audited with the client address the bff settled on. */
  async function failedSignInAddress(base: string, from: string, forwardedFor?: string): Promise<string> {
    const res = await send(base, '/api/admin/signin/totp', {
      method: 'POST',
      from,
      headers: { 'Content-Type': 'application/json', Origin: base, ...(forwardedFor ? { 'X-Forwarded-For': forwardedFor } : {}) },
      body: JSON.stringify({ name: 'door_boss', code: '000000' }),
    });
    expect(res.status, res.body).toBe(401);
    const row = await knex('admin_audit').where({ action: 'admin.signin_failed' }).orderBy('id', 'desc').first('address');
    return String(row?.address);
  }

  it('audits a direct request to the bff with a forged X-Forwarded-For under its real address, from any loopback address', async () => {
    expect(await failedSignInAddress(stack.bffUrl, '127.0.0.1', FORGED)).toBe('127.0.0.1');
    expect(await failedSignInAddress(stack.bffUrl, '127.0.0.2', FORGED)).toBe('127.0.0.2');
  });

  it('audits a request through the front door under the client address', async () => {
    expect(await failedSignInAddress(stack.url, '127.0.0.3', FORGED)).toBe('127.0.0.3');
  });

  it('gives direct requests with forged addresses one rate-limit budget, their real address; the front door its clients theirs', async () => {
    const check = (base: string, from: string, forwardedFor?: string) =>
      send(base, '/api/username-available?u=door_probe', {
        from,
        headers: forwardedFor ? { 'X-Forwarded-For': forwardedFor } : {},
      }).then((r) => r.status);
    const direct: number[] = [];
    for (let i = 0; i <= USERNAME_CHECKS_PER_MINUTE; i += 1) direct.push(await check(stack.bffUrl, '127.0.0.1', `198.51.100.${i + 1}`));
    expect(direct).toEqual([...Array<number>(USERNAME_CHECKS_PER_MINUTE).fill(200), 429]);
    // That was 127.0.0.1's budget, through the front door too; 127.0.0.5 has its own.
    expect(await check(stack.url, '127.0.0.1')).toBe(429);
    expect(await check(stack.url, '127.0.0.5')).toBe(200);
  });
});
