// Oversized requests are refused (413 / 414 / 431 / 400) by nginx and by each service, and a
// slowloris attack (hundreds of sockets trickling headers) does not starve other clients.
// Timeouts that end such sockets: nginx client_header_timeout (default 60 s), Node's headersTimeout
// (60 s) and requestTimeout (300 s), both finite in Node 20.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../src/stack';
import { figure, recordFigures, type Figure } from './lib/figures';
import { send, sleep, summarize, type Sample } from './lib/http';

const figures: Figure[] = [];
let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
  recordFigures(32, 'Hostile input: limits and slow clients', figures);
});

describe('oversized requests', () => {
  it('are refused at nginx and at each service, never with 5xx', async () => {
    const big = (kib: number) => 'x'.repeat(kib * 1024);
    interface Case {
      where: string;
      base: string;
      path: string;
      method?: string;
      headers?: Record<string, string>;
      body?: string;
      expect: number[];
    }
    const bigSignIn = (who: string, base: string): Case => ({
      where: `${who}: 100 KiB JSON body to /api/login`,
      base,
      path: '/api/login',
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: base },
      body: JSON.stringify({ username: big(100) }),
      expect: [413],
    });
    const cases: Case[] = [
      bigSignIn('nginx', stack.baseUrl),
      { where: 'nginx: 2 MiB body to /', base: stack.baseUrl, path: '/', method: 'POST', body: big(2048), expect: [413] },
      { where: 'nginx: 64 KiB header', base: stack.baseUrl, path: '/api/updates/1', headers: { 'X-Big': big(64) }, expect: [400, 431] },
      { where: 'nginx: 32 KiB URL', base: stack.baseUrl, path: `/api/search/${big(32)}`, expect: [414, 400] },
      bigSignIn('bff', stack.bffUrl),
      { where: 'bff: 20 KiB header', base: stack.bffUrl, path: '/api/updates/1', headers: { 'X-Big': big(20) }, expect: [431] },
      { where: 'bff: 32 KiB URL', base: stack.bffUrl, path: `/api/search/${big(32)}`, expect: [400, 414, 431] },
      {
        where: 'media: 20 KiB header',
        base: stack.mediaUrl,
        path: '/members/photosthumbs/x/large.jpg',
        headers: { 'X-Big': big(20) },
        expect: [431],
      },
      {
        where: 'media: 1 MiB body',
        base: stack.mediaUrl,
        path: '/members/photosthumbs/x/large.jpg',
        method: 'POST',
        body: big(1024),
        expect: [405, 413],
      },
    ];
    // Node's own answer to an oversized request destroyed the socket with the rest of the request
    // unread, so the 431 could lose the race to a reset; both services answer through
    // answerClientErrors (contracts/src/client-error.ts), which closes politely.
    const seen: string[] = [];
    for (const c of cases) {
      const s = await send(c.base, { path: c.path, method: c.method, headers: c.headers, body: c.body }, { keepBody: true });
      seen.push(`${c.where}: ${s.status || s.error}`);
      expect(c.expect, `${c.where}: ${s.status} ${s.error ?? ''} ${s.body?.slice(0, 80)}`).toContain(s.status);
    }
    figures.push(
      figure('oversized bodies, headers and URLs (nginx, bff, media)', seen.join(' · '), '413 / 414 / 431 / 400 / 405, never 5xx', true),
    );
  });
});

/** A socket that sends a request line and then one header line every `everyMs`, never finishing. */
function slowClient(base: string, everyMs: number): { socket: Socket; stop(): void; closedByServer(): boolean } {
  const u = new URL(base);
  const socket = connect({ host: u.hostname, port: Number(u.port) });
  let closed = false;
  socket.on('error', () => undefined);
  socket.on('close', () => (closed = true));
  socket.write(`GET /api/updates/1 HTTP/1.1\r\nHost: ${u.host}\r\n`);
  let n = 0;
  const timer = setInterval(() => socket.write(`X-Slow-${n++}: 1\r\n`), everyMs);
  return {
    socket,
    stop() {
      clearInterval(timer);
      socket.destroy();
    },
    closedByServer: () => closed,
  };
}

describe('slow clients', () => {
  it('hundreds of sockets trickling headers do not starve other requests', async () => {
    const targets = [
      { name: 'nginx', base: stack.baseUrl, path: '/api/updates/1' },
      { name: 'bff', base: stack.bffUrl, path: '/api/updates/1' },
      { name: 'media', base: stack.mediaUrl, path: '/healthz' },
    ];
    const perTarget = Number(process.env.SLOWLORIS_SOCKETS ?? 300);
    const slow = targets.flatMap((t) => Array.from({ length: perTarget }, () => slowClient(t.base, 500)));
    try {
      await sleep(1500);
      const rows: string[] = [];
      for (const t of targets) {
        const samples: Sample[] = [];
        for (let round = 0; round < 10; round++)
          samples.push(...(await Promise.all(Array.from({ length: 5 }, () => send(t.base, { path: t.path }, { timeoutMs: 5000 })))));
        const s = summarize(samples);
        rows.push(`${t.name} ${s.requests - s.errors - samples.filter((x) => x.status !== 200).length}/${s.requests} ok, p99 ${s.p99} ms`);
        expect(
          samples.filter((x) => x.status !== 200 || x.error),
          t.name,
        ).toEqual([]);
      }
      const open = slow.filter((c) => !c.closedByServer()).length;
      figures.push(
        figure(
          `slowloris: ${perTarget} trickling sockets per target, 50 normal requests each`,
          `${rows.join(' · ')} (${open} of ${slow.length} slow sockets still open)`,
          'every normal request answered',
          true,
        ),
      );
    } finally {
      for (const c of slow) c.stop();
    }
  });
});
