import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import type { Child } from '../../../scripts/lib/process';
import { startStack } from '../../src/stack';
import { figure, type Figure } from '../lib/figures';
import { round, sleep } from '../lib/http';

interface Outcome {
  id: string;
  ok: boolean;
  error?: string;
  finishedAt: number;
}

/**
 * One request on its own connection (so "refused" and "cut mid-answer" cannot be confused); the body
 * is read slowly when `slow`, so downloads are still streaming when the signal comes. OK means the
 * whole body arrived (exactly Content-Length bytes).
 */
function hit(url: string, path: string, id: string, slow: boolean): Promise<Outcome> {
  const u = new URL(path, url);
  return new Promise((resolve) => {
    const done = (ok: boolean, error?: string) => resolve({ id, ok, error, finishedAt: performance.now() });
    const req = request(
      { host: u.hostname, port: u.port, path: u.pathname + u.search, agent: false, headers: { Connection: 'close', 'X-Request-Id': id } },
      (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => {
          bytes += c.length;
          if (slow) {
            res.pause();
            setTimeout(() => res.resume(), 4);
          }
        });
        res.on('end', () => {
          const expected = Number(res.headers['content-length'] ?? -1);
          const ok = (res.statusCode === 200 || res.statusCode === 206) && (expected < 0 || expected === bytes);
          done(ok, ok ? undefined : `status ${res.statusCode}, ${bytes} of ${expected} bytes`);
        });
        res.on('error', (err) => done(false, `response: ${err.message}`));
        res.on('aborted', () => done(false, 'aborted'));
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => done(false, err.code ?? err.message));
    req.end();
  });
}

function servedIds(lines: string[]): Set<string> {
  const ids = new Set<string>();
  for (const line of lines) {
    try {
      const entry = JSON.parse(line) as { msg?: string; reqId?: string };
      if (entry.msg === 'request' && entry.reqId) ids.add(entry.reqId);
    } catch {
      // not a JSON log line
    }
  }
  return ids;
}

/** Loops of one-connection requests against a service; SIGTERM once `before` have completed. */
async function sigtermUnderLoad(
  child: Child,
  url: string,
  next: (n: number) => { path: string; slow: boolean },
  logs: string[],
  before: number,
  tag: string,
) {
  const outcomes: Outcome[] = [];
  let stop = false;
  let sent = 0;
  const deadline = performance.now() + 120_000;
  const loop = async () => {
    while (!stop && performance.now() < deadline) {
      const n = sent++;
      const r = next(n);
      const outcome = await hit(url, r.path, `${tag}-${n}`, r.slow);
      outcomes.push(outcome);
      if (outcome.error === 'ECONNREFUSED') return;
    }
  };
  const loops = Array.from({ length: 16 }, loop);
  while (outcomes.length < before && performance.now() < deadline) await sleep(10);
  const sigtermAt = performance.now();
  child.proc.kill('SIGTERM');
  const code = await child.exited;
  const exitMs = performance.now() - sigtermAt;
  stop = true;
  await Promise.all(loops);
  const served = servedIds(logs);
  // Taken in by the service and then failed, or failed any other way than at connect.
  const cut = outcomes.filter((o) => !o.ok && o.error !== 'ECONNREFUSED' && (served.has(o.id) || o.error !== 'ECONNRESET'));
  const completedAfter = outcomes.filter((o) => o.ok && o.finishedAt > sigtermAt).length;
  return { outcomes, cut, code, exitMs, completedAfter };
}

/** SIGTERM to the bff and then to the media service while each serves 16 concurrent clients. */
export async function sigtermEach(options: { before?: number } = {}): Promise<Figure[]> {
  const logs: Record<string, string[]> = { bff: [], media: [] };
  // The Node front door: the media service streams files itself (no X-Accel-Redirect).
  const stack = await startStack({ frontDoor: 'node', env: { LOG_LEVEL: 'info' }, onLine: (name, line) => logs[name]?.push(line) });
  try {
    const updates = (await (await fetch(`${stack.baseUrl}/api/updates/1`)).json()) as { thumbnail: string; path: string; type: string }[];
    const photoSet = updates.find((u) => u.type === 'photo')?.path ?? updates[0]?.path ?? 'x';
    // A 24 MiB public file: slow readers keep it streaming across the signal.
    mkdirSync(join(stack.mediaRoot, 'freephotos', photoSet), { recursive: true });
    writeFileSync(join(stack.mediaRoot, 'freephotos', photoSet, 'big-download.jpg'), Buffer.alloc(24 * 1024 * 1024, 7));
    const bffPaths = ['/api/updates/1', '/api/photos/2', '/api/videos/1', '/api/vod/1', '/api/search/model', '/api/search/a'];
    const bff = await sigtermUnderLoad(
      stack.children.bff,
      stack.bffUrl,
      (n) => ({ path: bffPaths[n % bffPaths.length] ?? '/', slow: false }),
      logs.bff ?? [],
      options.before ?? 300,
      'bff',
    );
    const thumbs = updates.map((u) => u.thumbnail).slice(0, 20);
    const media = await sigtermUnderLoad(
      stack.children.media,
      stack.mediaUrl,
      (n) =>
        n % 4 === 0
          ? { path: `/members/freephotos/${photoSet}/big-download.jpg`, slow: true }
          : { path: `${thumbs[n % thumbs.length]}?w=${[160, 320, 480, 640, 960, 1280][n % 6]}`, slow: false },
      logs.media ?? [],
      Math.round((options.before ?? 300) / 3),
      'media',
    );
    const row = (name: string, r: typeof bff) =>
      figure(
        `SIGTERM to the ${name} under 16 clients`,
        `${r.outcomes.filter((o) => o.ok).length} completed (${r.completedAfter} after the signal), ${r.cut.length} cut; exit ${r.code} after ${round(r.exitMs, 0)} ms`,
        'no in-flight request fails, exit 0',
        r.cut.length === 0 && r.code === 0 && r.completedAfter > 0,
      );
    if (bff.cut.length || media.cut.length) console.log('cut:', JSON.stringify([...bff.cut, ...media.cut].slice(0, 5)));
    return [row('bff', bff), row('media service (downloads streaming, variants rendering)', media)];
  } finally {
    await stack.stop();
  }
}
