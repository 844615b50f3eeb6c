import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, spawnTs, waitHealthy, type Child } from '../../scripts/lib/process';
import { repoRoot } from '../../scripts/lib/site';
import { CATALOG_FILE, seededTemplate } from '../src/stack';

// SIGTERM under load: the bff stops accepting, finishes what it is serving, then exits. Every
// request the bff received completes whole. The others are refused at connect or, if they sat in
// the kernel's accept queue when the listener closed, reset before the bff ever read them: the
// bff's request log (one line per request id) tells the two apart.

interface Outcome {
  id: string;
  ok: boolean;
  error?: string;
}

/** One request on its own connection, so "refused" and "cut mid-answer" cannot be confused. */
function hit(port: number, path: string, id: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false, headers: { Connection: 'close', 'X-Request-Id': id } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        let ok = res.statusCode === 200;
        try {
          JSON.parse(Buffer.concat(chunks).toString());
        } catch {
          ok = false;
        }
        resolve({ id, ok, error: ok ? undefined : `status ${res.statusCode} or truncated body` });
      });
      res.on('error', (err) => resolve({ id, ok: false, error: `response: ${err.message}` }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ id, ok: false, error: err.code ?? err.message }));
    req.end();
  });
}

/**
 * A request the bff has taken in (its headers read: Node answers "100 Continue" only then) but
 * cannot answer yet, because its body has not been sent. `finish()` sends the body and resolves
 * with the status of the whole answer.
 */
function heldRequest(port: number): Promise<{ finish: () => Promise<number> }> {
  const body = '{}';
  return new Promise((resolveHeld, rejectHeld) => {
    const req = request({
      host: '127.0.0.1',
      port,
      path: '/api/logout',
      method: 'POST',
      agent: false,
      headers: {
        Origin: `http://127.0.0.1:${port}`,
        'Content-Type': 'application/json',
        'Content-Length': String(body.length),
        Expect: '100-continue',
      },
    });
    const answer = new Promise<number>((resolve, reject) => {
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      });
      req.on('error', reject);
    });
    answer.catch(rejectHeld);
    req.on('continue', () =>
      resolveHeld({
        finish: () => {
          req.end(body);
          return answer;
        },
      }),
    );
    req.flushHeaders();
  });
}

/** A data folder for a describe block and the one process it starts there (`child`): after all, the process stops and the folder goes. */
function scratch(prefix: string): { dir: string; child?: Child } {
  const made: { dir: string; child?: Child } = { dir: mkdtempSync(join(tmpdir(), prefix)) };
  afterAll(async () => {
    await made.child?.stop(1000);
    rmSync(made.dir, { recursive: true, force: true });
  });
  return made;
}

describe('bff SIGTERM under load', () => {
  const run = scratch('shutdown-');
  const dataDir = run.dir;

  it('fails no in-flight request', async () => {
    // The bff needs only the demo catalog: a copy of the seeded template's (made once before the
    // suite), not a new seed, whose 1,400 pictures and clips cost 20-40 s of CPU inside this test.
    const template = await seededTemplate(() => {});
    for (const file of readdirSync(template).filter((f) => f.startsWith(CATALOG_FILE)))
      copyFileSync(join(template, file), join(dataDir, file));
    const databaseUrl = `sqlite:${join(dataDir, CATALOG_FILE)}`;
    const port = await freePort();
    const logs: string[] = [];
    const bff = spawnTs(
      'bff',
      join(repoRoot, 'bff/src/main.ts'),
      { ...process.env, DATABASE_URL: databaseUrl, BFF_PORT: String(port), LOG_LEVEL: 'info', REDIS_URL: '' },
      (_, line) => logs.push(line),
    );
    run.child = bff;
    await waitHealthy(`http://127.0.0.1:${port}/healthz`, bff);

    // A mix of cached listings and uncached searches (each a database read), 16 at a time.
    const paths = ['/api/updates/1', '/api/photos/2', '/api/videos/1', '/api/vod/1', '/api/search/model', '/api/search/a'];
    const outcomes: Outcome[] = [];
    let stop = false;
    let sent = 0;
    const loop = async () => {
      while (!stop) {
        const n = sent++;
        const outcome = await hit(port, paths[n % paths.length] ?? '/api/updates/1', `shutdown-${n}`);
        outcomes.push(outcome);
        // Once refused, the listener is gone for good: this loop is done.
        if (outcome.error === 'ECONNREFUSED') return;
      }
    };
    const loops = Array.from({ length: 16 }, loop);
    while (outcomes.length < 300) await new Promise((r) => setTimeout(r, 10));
    // One request is surely in flight when the signal comes: taken in, its body still to come.
    const held = await heldRequest(port);
    bff.proc.kill('SIGTERM');
    while (!logs.some((l) => l.includes('"shutting down"'))) await new Promise((r) => setTimeout(r, 10));
    // The bff is draining: it still reads the body and answers whole.
    expect(await held.finish()).toBe(204);
    const code = await bff.exited;
    stop = true;
    await Promise.all(loops);

    const served = new Set(
      logs.flatMap((line) => {
        try {
          const entry = JSON.parse(line) as { msg?: string; reqId?: string };
          return entry.msg === 'request' && entry.reqId ? [entry.reqId] : [];
        } catch {
          return [];
        }
      }),
    );
    const failures = outcomes.filter((o) => !o.ok && o.error !== 'ECONNREFUSED');
    // No request the bff took in failed; anything else failed at the connection, never mid-answer.
    const cut = failures.filter((o) => served.has(o.id) || o.error !== 'ECONNRESET');
    expect(cut, JSON.stringify(cut.slice(0, 5))).toEqual([]);
    expect(outcomes.filter((o) => o.ok).every((o) => served.has(o.id))).toBe(true);
    expect(code).toBe(0);
    expect(outcomes.filter((o) => o.ok).length).toBeGreaterThanOrEqual(300);
    expect(logs.some((l) => l.includes('"shutting down"'))).toBe(true);
  });
});

describe('media service SIGTERM during a download', () => {
  const run = scratch('shutdown-media-');
  const dataDir = run.dir;

  it('finishes the download it is sending, then exits', async () => {
    const size = 32 * 1024 * 1024;
    mkdirSync(join(dataDir, 'media/freephotos/big'), { recursive: true });
    const data = Buffer.alloc(size, 7);
    writeFileSync(join(dataDir, 'media/freephotos/big/file.bin'), data);
    const port = await freePort();
    const env = {
      ...process.env,
      MEDIA_ROOT: join(dataDir, 'media'),
      VARIANT_CACHE_DIR: join(dataDir, 'variants'),
      MEDIA_PORT: String(port),
      MEDIA_OFFLOAD: 'none',
      LOG_LEVEL: 'warn',
    };
    const media = spawnTs('media', join(repoRoot, 'media-service/src/main.ts'), env, () => {});
    run.child = media;
    await waitHealthy(`http://127.0.0.1:${port}/healthz`, media);

    // A slow reader: the response is mid-stream (paused) when the signal comes.
    const received = await new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/members/freephotos/big/file.bin', agent: false }, (res) => {
        let bytes = 0;
        let signalled = false;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (!signalled && bytes > 1024 * 1024) {
            signalled = true;
            res.pause();
            media.proc.kill('SIGTERM');
            setTimeout(() => res.resume(), 500);
          }
        });
        res.on('end', () => resolve(bytes));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
    expect(received).toBe(size);
    expect(await media.exited).toBe(0);
  });
});
