import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Knex } from 'knex';
import { createKnex, migrateLatest } from '@media-site/db';
import { runOpsCommand } from '@media-site/ops/cli';
import { loadConfig } from './config';
import { startBff, type RunningBff } from './server';
import { silentLogger } from './test/harness';
import { insertCatalog } from './test/fixtures';
import { mariadbMissing, startReplicatedPair, type ReplicatedPair } from './test/mariadb-replication';
import { waitFor } from './test/redis-server';

// DATABASE_READ_URL against a real MariaDB primary and replica (binlog replication by GTID), both
// started here in temp folders on free ports of their own.
const missing = mariadbMissing();
if (missing) console.warn(`read replica tests skipped: ${missing}`);
const ORIGIN = 'http://127.0.0.1';

async function comSelect(knex: Knex): Promise<number> {
  const [rows] = (await knex.raw("show global status like 'Com_select'")) as [Array<{ Value: string }>];
  return Number(rows[0]!.Value);
}

describe.skipIf(Boolean(missing))('catalog reads from a read replica (real MariaDB primary + replica)', () => {
  let pair: ReplicatedPair;
  let primary: Knex;
  let replica: Knex;
  let bff: RunningBff;

  beforeAll(async () => {
    pair = await startReplicatedPair();
    await pair.primary.admin.raw('CREATE DATABASE site CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci');
    primary = createKnex(pair.primary.url('site'));
    await migrateLatest(primary);
    await insertCatalog(primary);
    await pair.caughtUp();
    replica = createKnex(pair.replica.url('site'));
    bff = await startBff(
      loadConfig({
        BFF_PORT: '0',
        DATABASE_URL: pair.primary.url('site'),
        // Two replicas, the second never reachable (nothing listens there): reads skip it.
        DATABASE_READ_URL: ` ${pair.replica.url('site')} , mysql://root@127.0.0.1:32319/site,`,
        DATABASE_READ_CHECK_MS: '100',
        // Every request reads the database (no cache), so each one shows where it went.
        CACHE_TTL_SECONDS: '0',
        SEARCH_INDEX: 'off',
        ALLOWED_ORIGINS: ORIGIN,
        LOG_LEVEL: 'silent',
      }),
      { logger: silentLogger },
    );
    await waitFor(() => bff.readPool!.replicas[0]!.up, 'the replica to be in use', 10_000);
  }, 120_000);

  afterAll(async () => {
    await bff?.close();
    await primary?.destroy();
    await replica?.destroy();
    await pair?.stop();
  });

  const get = (path: string) => fetch(bff.url + path);

  it('sends catalog reads to the replica, not the primary', async () => {
    const [replicaBefore, primaryBefore] = [await comSelect(pair.replica.admin), await comSelect(pair.primary.admin)];
    const readsBefore = bff.readPool!.replicas[0]!.reads;
    for (let page = 1; page <= 3; page++) {
      for (const list of ['photos', 'videos', 'vod', 'updates']) expect((await get(`/api/${list}/${page}`)).status).toBe(200);
    }
    const replicaSelects = (await comSelect(pair.replica.admin)) - replicaBefore;
    const primarySelects = (await comSelect(pair.primary.admin)) - primaryBefore;
    // 12 listings, at least one SELECT each, ran on the replica; the primary saw only this test's
    // own counter query (and the generation read a catalog change would cause: none here).
    expect(bff.readPool!.replicas[0]!.reads - readsBefore).toBeGreaterThanOrEqual(12);
    expect(bff.readPool!.replicas.map((r) => [r.name, r.up])).toEqual([
      [`127.0.0.1:${pair.replica.port}/site`, true],
      ['127.0.0.1:32319/site', false],
    ]);
    expect(bff.readPool!.replicas[1]!.reads).toBe(0);
    expect(replicaSelects).toBeGreaterThanOrEqual(12);
    expect(primarySelects).toBeLessThan(12);
  });

  it('a lagging replica does not answer for a change it has not replayed; members and sessions use the primary', async () => {
    await pair.replica.admin.raw('STOP SLAVE SQL_THREAD');
    try {
      const first = (await primary('photosets').orderBy('updatename').first('id', 'updatename')) as { id: number; updatename: string };
      await primary('photosets').where({ id: first.id }).update({ updatename: 'AAA changed on the primary' });
      await bff.cache.catalogChanged();
      // The replica really is behind: it still has the old title.
      expect((await replica('photosets').where({ id: first.id }).first('updatename')).updatename).toBe(first.updatename);
      const page = await (await get('/api/photos/1')).text();
      expect(page).toContain('AAA changed on the primary');
      expect(page).not.toContain(JSON.stringify(first.updatename));

      // A member added now exists only on the primary: signing in and the session it starts still work.
      const out: string[] = [];
      const code = await runOpsCommand(['member', 'add', 'lag_member', '--password', 'correct horse'], {
        env: {},
        knex: primary,
        stdin: async () => '',
        out: (s) => out.push(s),
        err: (s) => out.push(s),
      });
      expect(code, out.join('\n')).toBe(0);
      expect(await replica('members').where({ username: 'lag_member' }).first('id')).toBeUndefined();
      const login = await fetch(bff.url + '/api/login', {
        method: 'POST',
        headers: { Origin: ORIGIN, 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: 'lag_member', password: 'correct horse' }),
      });
      expect(login.status).toBe(200);
      const cookie = login.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');
      const me = await fetch(bff.url + '/api/me', { headers: { Cookie: cookie } });
      expect(me.status).toBe(200);
      expect(await me.json()).toMatchObject({ username: 'lag_member' });
    } finally {
      await pair.replica.admin.raw('START SLAVE SQL_THREAD');
    }
    // Caught up again, the replica serves reads again.
    const restarted = performance.now();
    await pair.caughtUp();
    await waitFor(() => bff.readPool!.replicas[0]!.generation === bff.cache.currentGeneration, 'the replica to replay the change', 10_000);
    console.log(
      `read replicas: replica back in use ${(performance.now() - restarted).toFixed(0)} ms after its SQL thread restarted (check every 100 ms)`,
    );
    const readsBefore = bff.readPool!.replicas[0]!.reads;
    expect(await (await get('/api/photos/1')).text()).toContain('AAA changed on the primary');
    expect(bff.readPool!.replicas[0]!.reads).toBeGreaterThan(readsBefore);
  });

  it('a hung replica (SIGSTOP): every read is still answered, from the primary, and the replica is used again once it answers', async () => {
    const primaryBefore = bff.readPool!.primaryReads();
    pair.replica.signal('SIGSTOP');
    try {
      // Eight clients at once, as a loaded site would have.
      const statuses: number[] = [];
      const times: number[] = [];
      await Promise.all(
        Array.from({ length: 8 }, async (_, client) => {
          for (let i = 0; i < 10; i++) {
            const started = performance.now();
            statuses.push((await get(`/api/${['photos', 'videos', 'vod', 'updates'][(client + i) % 4]}/${(i % 3) + 1}`)).status);
            times.push(performance.now() - started);
          }
        }),
      );
      times.sort((a, b) => a - b);
      console.log(
        `read replicas: replica stopped (SIGSTOP), ${statuses.length} reads from 8 clients: ${statuses.filter((s) => s !== 200).length} errors; ` +
          `slowest ${times.at(-1)!.toFixed(0)} ms (reads that waited out the ${500} ms deadline), median ${times[times.length >> 1]!.toFixed(1)} ms`,
      );
      expect(statuses.filter((s) => s !== 200)).toEqual([]);
      expect(bff.readPool!.replicas[0]!.up).toBe(false);
      expect(bff.readPool!.primaryReads() - primaryBefore).toBeGreaterThanOrEqual(statuses.length);
      expect((await get('/readyz')).status).toBe(200);
    } finally {
      pair.replica.signal('SIGCONT');
    }
    // Answering again: the next check puts it back and reads go to it.
    await waitFor(() => bff.readPool!.replicas[0]!.up, 'the replica to be in use again', 10_000);
    const readsBefore = bff.readPool!.replicas[0]!.reads;
    expect((await get('/api/photos/1')).status).toBe(200);
    expect(bff.readPool!.replicas[0]!.reads).toBeGreaterThan(readsBefore);
  });

  it('a dead replica: every read is still answered, from the primary', async () => {
    const primaryBefore = bff.readPool!.primaryReads();
    await pair.replica.kill();
    const statuses: number[] = [];
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      for (const list of ['photos', 'videos', 'vod', 'updates']) {
        const started = performance.now();
        statuses.push((await get(`/api/${list}/${(i % 3) + 1}`)).status);
        times.push(performance.now() - started);
      }
    }
    console.log(
      `read replicas: replica killed, ${statuses.length} reads: ${statuses.filter((s) => s !== 200).length} errors; ` +
        `first read ${times[0]!.toFixed(0)} ms (a retry on the primary when the kill was not yet seen by a check), slowest ${Math.max(...times).toFixed(0)} ms, median ${times.sort((a, b) => a - b)[times.length >> 1]!.toFixed(1)} ms`,
    );
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(bff.readPool!.replicas[0]!.up).toBe(false);
    expect(bff.readPool!.primaryReads() - primaryBefore).toBeGreaterThanOrEqual(80);
    expect((await get('/readyz')).status).toBe(200);
  });
});
