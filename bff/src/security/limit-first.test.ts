import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN, startAccountKit, type AccountKit } from '../test/account-kit';
import { REPORTS_PER_MINUTE } from '../routes/api/reports/routes';

const PAYMENTS_PER_MINUTE = 20;
const LOGINS_PER_MINUTE = 10;
/** The payment request that once held the event loop: 15.9 KB, a valid Origin, an e-mail that took 0.35 s to refuse. */
const SLOW_EMAIL_BODY = JSON.stringify({
  accessToken: 'a'.repeat(43),
  paymentToken: 'tok12345',
  formData: { username: 'someone', password: 'correct horse', email: `a@${'.'.repeat(15_800)} ` },
});

/**
 * Sends the request line, headers and 10 bytes of a body announced as 4,000 bytes, and waits for
 * an answer. A server that reads the body first never answers (the rest never comes); one that
 * limits first answers at once.
 */
function postWithoutBody(server: Server, path: string, headers: Record<string, string> = {}): Promise<number | 'no answer'> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const timer = setTimeout(() => {
      socket.destroy();
      resolve('no answer');
    }, 2000);
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(received);
      if (status) {
        clearTimeout(timer);
        socket.destroy();
        resolve(Number(status[1]));
      }
    });
    socket.on('error', reject);
    const head = Object.entries({
      Host: '127.0.0.1',
      Origin: ORIGIN,
      'Content-Type': 'application/json',
      'Content-Length': '4000',
      ...headers,
    })
      .map(([k, v]) => `${k}: ${v}`)
      .join('\r\n');
    socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n\r\n{"username"`);
  });
}

describe('per-address limits run before a body is read', () => {
  let kit: AccountKit;
  let server: Server;
  beforeAll(async () => {
    kit = await startAccountKit('sqlite', {
      RATE_LIMIT_PAYMENT_PER_MINUTE: String(PAYMENTS_PER_MINUTE),
      RATE_LIMIT_LOGIN_PER_MINUTE: String(LOGINS_PER_MINUTE),
    });
    server = kit.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await kit?.close();
  });

  it('refuses the 15.9 KB payment body (an e-mail that once took 0.35 s) with a 400 that names the first failed field', async () => {
    expect(Buffer.byteLength(SLOW_EMAIL_BODY)).toBeGreaterThan(15_800);
    const res = await kit.request
      .post('/api/process_payment')
      .set({ Origin: ORIGIN, 'Content-Type': 'application/json' })
      .send(SLOW_EMAIL_BODY);
    expect(res.status).toBe(400);
    // Validation stopped at the first failed check (one field named, not every problem in the body).
    // How quickly is measured by `npm run bench:event-loop`, not asserted here: the machine is shared.
    expect(res.body.error.message).toMatch(/formData\.email/);
  });

  it('answers the 21st payment call from one address in a minute with 429, without reading its body', async () => {
    // The test above spent one; mixed routes share the one per-address counter.
    const paths = ['/api/process_payment', '/api/get_ccbill_token', '/api/get_ccbill_back_token'];
    for (let i = 1; i < PAYMENTS_PER_MINUTE; i++) {
      const res = await kit.request
        .post(paths[i % 3] as string)
        .set({ Origin: ORIGIN, 'Content-Type': 'application/json' })
        .send(SLOW_EMAIL_BODY);
      expect(res.status).not.toBe(429);
    }
    for (const path of paths) expect(await postWithoutBody(server, path)).toBe(429);
  });

  it('refuses sign-in guesses over the per-address limit without reading the body', async () => {
    for (let i = 0; i < LOGINS_PER_MINUTE; i++) {
      const res = await kit.request
        .post('/api/login')
        .set('Origin', ORIGIN)
        .send({ username: `nobody${i}`, password: 'wrong password' });
      expect(res.status).not.toBe(429);
    }
    expect(await postWithoutBody(server, '/api/login')).toBe(429);
  });

  it('refuses reports over the per-address limit without reading the body', async () => {
    for (let i = 0; i < REPORTS_PER_MINUTE; i++) {
      const res = await kit.request.post('/api/reports').set('Origin', ORIGIN).send({ content: '/video/x', reason: 'nope', details: 'x' });
      expect(res.status).not.toBe(429);
    }
    expect(await postWithoutBody(server, '/api/reports')).toBe(429);
  });
});
