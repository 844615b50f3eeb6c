import { createServer, request, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerClientErrors } from './client-error';

function send(port: number, path: string): Promise<{ status: number; body: string } | { error: string }> {
  return new Promise((resolve) => {
    const r = request({ host: '127.0.0.1', port, path }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    r.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    r.end();
  });
}

describe('requests Node cannot parse', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((_req, res) => res.end('ok'));
    answerClientErrors(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((r) => server.close(r)));

  it('a URL past the 16 KiB header limit gets a JSON 431 every time, never a reset', async () => {
    const path = `/api/search/${'x'.repeat(32 * 1024)}`;
    const answers = await Promise.all(Array.from({ length: 100 }, () => send(port, path)));
    for (const a of answers)
      expect(a).toEqual({
        status: 431,
        body: JSON.stringify({ error: { code: 'headers_too_large', message: 'request line or headers too large' } }),
      });
  });

  it('a malformed request line gets a JSON 400 and the connection closes', async () => {
    const socket = connect(port, '127.0.0.1');
    socket.write('GARBAGE\r\n\r\n');
    let text = '';
    socket.on('data', (c: Buffer) => (text += c.toString()));
    await new Promise((r) => socket.once('close', r));
    expect(text).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(text).toContain('"code":"bad_request"');
  });

  it('a well-formed request is untouched', async () => {
    expect(await send(port, '/fine')).toEqual({ status: 200, body: 'ok' });
  });
});
