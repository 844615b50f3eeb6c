import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { oldestPendingPurgeAgeMs, restore, takeDown } from '@media-site/db/content';
import { createTestDb, testBackends, type TestDb } from '@media-site/db/testing';
import { insertCatalog } from '../test/fixtures';
import { startPurgeWorker, type PurgeWorker, type PurgeWorkerOptions } from './worker';

/** A stand-in for the CDN's purge API: answers `status()` per call (200, a failure, or never). */
class Edge {
  received: Array<{ event: string; urls: string[] }> = [];
  calls = 0;
  status: (call: number) => number | 'hang' = () => 200;
  private readonly server: Server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      this.calls += 1;
      const answer = this.status(this.calls);
      if (answer === 'hang') return;
      if (answer < 300) this.received.push(JSON.parse(body) as { event: string; urls: string[] });
      res.writeHead(answer).end();
    });
  });
  url = '';
  async start(): Promise<void> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/purge`;
  }
  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, check: () => Promise<T | undefined | false> | T | undefined | false, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(20);
  }
}

describe.each(testBackends())('purge outbox (%s)', (backend) => {
  let db: TestDb;
  let edge: Edge;
  let folders: string[];
  const workers: PurgeWorker[] = [];
  const lines: Array<{ msg: string; attempt?: number; event?: string }> = [];
  const logger = pino(
    { level: 'info' },
    new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as (typeof lines)[number]);
        done();
      },
    }),
  );
  const start = (options: Partial<PurgeWorkerOptions> = {}) => {
    const worker = startPurgeWorker({
      knex: db.knex,
      targets: { webhookUrl: edge.url, command: undefined },
      logger,
      pollMs: 25,
      minAgeMs: 300,
      backoffMs: () => 150,
      ...options,
    });
    workers.push(worker);
    return worker;
  };
  const pending = async () =>
    Number(((await db.knex('purge_outbox').whereNull('done_at').count({ n: '*' }))[0] as { n: number | string }).n);
  const change = (path: string) => ({ ref: { type: 'photoset' as const, path }, actor: 'test', reason: 'purge test', now: Date.now() });

  beforeAll(async () => {
    db = await createTestDb(backend);
    const catalog = await insertCatalog(db.knex);
    folders = catalog.photos.slice(0, 4).map((p) => p.path);
  });
  beforeEach(async () => {
    edge = new Edge();
    await edge.start();
    lines.length = 0;
  });
  afterEach(async () => {
    // The edge first: a call it holds open fails at once instead of after its 10 s timeout.
    await edge.stop();
    for (const worker of workers.splice(0)) await worker.stop();
  });
  afterAll(async () => {
    await db?.destroy();
  });

  it('records the purge in the takedown transaction, and sends it only after PURGE_DELAY_MS', async () => {
    const before = await pending();
    await takeDown(db.knex, change(folders[0]!));
    expect(await pending()).toBe(before + 1);
    // A takedown that fails (taken down already) records nothing.
    await expect(takeDown(db.knex, change(folders[0]!))).rejects.toThrow(/taken down already/);
    expect(await pending()).toBe(before + 1);
    const worker = start({ minAgeMs: 600 });
    const takenAt = Date.now();
    await until('the purge', () => edge.received.length > 0);
    expect(Date.now() - takenAt).toBeGreaterThanOrEqual(400);
    const { event, urls } = edge.received[0]!;
    expect(event).toBe('takedown');
    // The member and the edge paths of every folder the set's files live in.
    expect(urls.some((u) => u.startsWith('/members/')) && urls.some((u) => u.startsWith('/edge/members/'))).toBe(true);
    expect(urls.every((u) => u.includes(encodeURIComponent(folders[0]!)))).toBe(true);
    await until('the row marked delivered', async () => (await pending()) === 0);
    await worker.stop();
  });

  it('retries until the CDN accepts it, one log line per outcome, the backlog measured meanwhile', async () => {
    edge.status = (call) => (call <= 2 ? 503 : 200);
    await restore(db.knex, change(folders[0]!));
    start();
    await until('a refused attempt', () => lines.some((l) => l.msg.startsWith('purge not accepted')));
    expect(await oldestPendingPurgeAgeMs(db.knex, Date.now())).toBeGreaterThan(0);
    await until('the purge logged', () => lines.some((l) => l.msg === 'purge delivered'));
    expect(edge.received.length).toBe(1);
    expect(edge.calls).toBe(3);
    expect(lines.filter((l) => l.msg.startsWith('purge')).map((l) => `${l.event} ${l.attempt} ${l.msg.split(';')[0]}`)).toEqual([
      'restore 1 purge not accepted',
      'restore 2 purge not accepted',
      'restore 3 purge delivered',
    ]);
    expect(await oldestPendingPurgeAgeMs(db.knex, Date.now())).toBe(0);
  });

  it('survives the worker stopping between retries: a new worker on the same outbox delivers it', async () => {
    edge.status = () => 503;
    await takeDown(db.knex, change(folders[1]!));
    const first = start({ backoffMs: () => 400 });
    await until('a refused attempt', () => lines.some((l) => l.msg.startsWith('purge not accepted')));
    await first.stop();
    edge.status = () => 200;
    start();
    await until('the purge after the restart', () => edge.received.length === 1);
    expect(edge.received[0]!.event).toBe('takedown');
    await until('the row marked delivered', async () => (await pending()) === 0);
  });

  it('survives a worker dying mid-delivery: its lease runs out and another worker takes the row', async () => {
    // The first call never answers (the worker holding it is as good as dead).
    edge.status = (call) => (call === 1 ? 'hang' : 200);
    await takeDown(db.knex, change(folders[2]!));
    start({ leaseMs: 500 });
    await until('the first call', () => edge.calls === 1);
    start({ leaseMs: 500 });
    await until('the purge from the second worker', () => edge.received.length === 1);
    expect(edge.calls).toBe(2);
    await until('the row marked delivered', async () => (await pending()) === 0);
  });
});
