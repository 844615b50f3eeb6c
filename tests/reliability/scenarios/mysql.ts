import { startStack } from '../../src/stack';
import { figure, type Figure } from '../lib/figures';
import { startOwnMariadb } from '../lib/mariadb';
import { maxOf, round, send, sleep, startTraffic, waitUntil, type Sample } from '../lib/http';

/**
 * MySQL stopped under load, then started again: uncached catalog requests answer 503 JSON within
 * 2 s while it is down (cached ones may still answer 200), and answer 200 again once it is back,
 * with the bff never restarted. Every request asks for something not asked before (a new page or
 * search term), so each one needs the database.
 */
export async function mysqlOutage(options: { phaseMs: number; connections?: number }): Promise<Figure[]> {
  const db = await startOwnMariadb();
  const admin = `${db.url}/`;
  const { createKnex } = await import('@media-site/db');
  const k = createKnex(admin);
  await k.raw('CREATE DATABASE IF NOT EXISTS rel CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci');
  await k.destroy();
  const stack = await startStack({ databaseUrl: `${db.url}/rel`, env: { SEARCH_INDEX: 'off' } });
  const bffPid = stack.children.bff.proc.pid;
  try {
    const uncached = (n: number) => (n % 2 ? `/api/photos/${1 + (n % 9999)}` : `/api/search/q${n.toString(36)}`);
    const t0 = performance.now();
    const traffic = startTraffic(stack.baseUrl, (n) => ({ path: uncached(n) }), {
      connections: options.connections ?? 8,
      maxMs: options.phaseMs * 4 + 120_000,
      timeoutMs: 15_000,
    });
    await sleep(options.phaseMs);
    const stopAt = performance.now() - t0;
    await db.stop();
    const stoppedAt = performance.now() - t0;
    await sleep(options.phaseMs);
    const startAt = performance.now() - t0;
    await db.start();
    const upAt = performance.now() - t0;
    // Recovered: fresh requests (unseen search terms) answer 200 again.
    let probe = 0;
    const recoveryMs = await waitUntil(
      async () => (await send(stack.baseUrl, { path: `/api/search/r${probe++}` })).status === 200,
      'the bff to recover',
      60_000,
      100,
    );
    const recoveredAt = performance.now() - t0;
    await sleep(options.phaseMs);
    // Frozen rather than stopped: connections stay open and nothing answers.
    const freezeAt = performance.now() - t0;
    db.freeze();
    await sleep(options.phaseMs);
    const thawAt = performance.now() - t0;
    db.thaw();
    probe = 0;
    const thawRecoveryMs = await waitUntil(
      async () => (await send(stack.baseUrl, { path: `/api/search/f${probe++}` })).status === 200,
      'the bff to recover after the freeze',
      60_000,
      100,
    );
    const samples = await traffic.stop();
    const frozen = samples.filter((s) => s.at >= freezeAt && s.at < thawAt);
    const frozenSlowest = maxOf(frozen.map((s) => s.ms));
    const frozen503 = frozen.filter((s) => s.status === 503).length;

    const down = samples.filter((s) => s.at >= stoppedAt && s.at + s.ms <= startAt);
    const unavailable = down.filter((s) => s.status === 503);
    const slowest503 = maxOf(unavailable.map((s) => s.ms));
    const wrong = samples.filter((s) => s.error || (s.status !== 200 && s.status !== 503));
    const after = samples.filter((s: Sample) => s.at > recoveredAt + 1000 && s.at + s.ms < freezeAt);
    const afterBad = after.filter((s) => s.status !== 200);
    const body = await send(stack.baseUrl, { path: '/api/photos/1' }, { keepBody: true });
    const sameBff = stack.children.bff.proc.pid === bffPid && stack.children.bff.proc.exitCode === null;
    return [
      figure(
        'MySQL stopped under load: requests while it was down',
        `${down.length} (${unavailable.length} answered 503, the rest without the database)`,
        '503 for what needs the database',
        unavailable.length > 0,
      ),
      figure('MySQL down: slowest 503', `${round(slowest503, 0)} ms`, 'within 2000 ms', slowest503 < 2000),
      figure('MySQL down: answers other than 200/503, or no answer', `${wrong.length} of ${samples.length}`, '0', wrong.length === 0),
      figure(
        'MySQL back: first fresh 200 after the server accepted connections',
        `${round(recoveryMs, 0)} ms (restart took ${round(upAt - startAt, 0)} ms)`,
        'recovers without restarting the bff',
        sameBff && body.status === 200,
      ),
      figure(
        'MySQL back: failed answers afterwards',
        `${afterBad.length} of ${after.length}`,
        '0',
        after.length > 0 && afterBad.length === 0,
      ),
      figure(
        'MySQL frozen (SIGSTOP): slowest answer while frozen',
        `${round(frozenSlowest, 0)} ms (${frozen.length} requests, ${frozen503} answered 503)`,
        'within 2000 ms',
        frozen.length > 0 && frozenSlowest < 2000,
      ),
      figure('MySQL thawed: first fresh 200 after SIGCONT', `${round(thawRecoveryMs, 0)} ms`, 'recovers without a restart', true),
      figure('MySQL stop took', `${round(stoppedAt - stopAt, 0)} ms (clean shutdown)`, 'reported', true),
    ];
  } finally {
    await stack.stop();
    await db.destroy();
  }
}
