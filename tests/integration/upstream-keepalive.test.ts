import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNginx, type RunningNginx } from '../src/nginx';

// Two bff replicas behind the front door's site_bff upstream: nginx spreads requests over both and,
// with the template's keepalive, reuses its upstream connections instead of closing and reopening
// them (with `keepalive 16` shared by the replicas, 32 busy client connections made nginx open
// hundreds; docs/deploy.md "Scaling" has the throughput figures: npm run bench:replicas).
interface Replica {
  server: Server;
  url: string;
  connections: number;
  requests: number;
}

async function replica(): Promise<Replica> {
  const r = { connections: 0, requests: 0 } as Replica;
  r.server = createServer((_req, res) => {
    r.requests++;
    res.setHeader('Content-Type', 'application/json');
    res.end('{"ok":true}');
  });
  r.server.keepAliveTimeout = 65_000;
  r.server.on('connection', () => r.connections++);
  await new Promise<void>((resolve) => r.server.listen(0, '127.0.0.1', resolve));
  r.url = `http://127.0.0.1:${(r.server.address() as { port: number }).port}`;
  return r;
}

function get(url: string, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    })
      .on('error', reject)
      .end();
  });
}

describe('front door upstream keep-alive with two bff replicas', () => {
  let replicas: Replica[];
  let nginx: RunningNginx;
  let work: string;

  beforeAll(async () => {
    replicas = [await replica(), await replica()];
    work = await mkdtemp(join(tmpdir(), 'keepalive-'));
    nginx = await startNginx({
      bffUrl: replicas.map((r) => r.url),
      mediaUrl: 'http://127.0.0.1:9',
      spaDir: work,
      mediaRoot: work,
      accessLog: 'off',
    });
  });
  afterAll(async () => {
    await nginx?.stop();
    for (const r of replicas ?? []) {
      r.server.closeAllConnections();
      r.server.close();
    }
    await rm(work, { recursive: true, force: true });
  });

  it('spreads requests over both replicas and keeps its upstream connections open', async () => {
    // A path nginx never caches (/api/me): the catalog paths' cache lock would queue the stubs' unstored answers.
    const CLIENTS = 32;
    const ROUNDS = 25;
    const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const statuses = await Promise.all(Array.from({ length: CLIENTS }, () => get(nginx.url + '/api/me', agent)));
        expect(statuses.every((s) => s === 200)).toBe(true);
      }
    } finally {
      agent.destroy();
    }
    const requests = replicas.map((r) => r.requests);
    const connections = replicas.reduce((sum, r) => sum + r.connections, 0);
    expect(requests[0]! + requests[1]!).toBe(CLIENTS * ROUNDS);
    for (const n of requests) expect(n).toBeGreaterThan(CLIENTS * ROUNDS * 0.3);
    // At most one connection per concurrent request (plus slack for the first round's ramp-up);
    // a pool smaller than the concurrency would have nginx open new ones every round.
    expect(connections).toBeLessThanOrEqual(CLIENTS + 8);
  });
});
