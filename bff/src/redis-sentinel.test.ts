import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generationChannel } from '@media-site/contracts/generation';
import { bumpGeneration, publishGeneration } from '@media-site/db';
import { createTestDb, testBackends, type TestDb } from '@media-site/db/testing';
import { loadConfig } from './config';
import { startBff, type RunningBff } from './server';
import { insertCatalog } from './test/fixtures';
import { silentLogger } from './test/harness';
import { waitFor } from './test/redis-server';
import { sentinelMissing, startSentinelSetup, type SentinelSetup } from './test/redis-sentinel';

// REDIS_SENTINELS / REDIS_SENTINEL_NAME against Debian's redis-sentinel: a primary, a replica and
// three sentinels started here (ports 32401-32413: fixed ports sit below the ephemeral range, where
// an outgoing connection of another file could hold one), the primary killed while requests run.
const missing = sentinelMissing();
if (missing) console.warn(`Redis Sentinel tests skipped: ${missing}`);
const ORIGIN = 'http://127.0.0.1';
const PORTS = { primary: 32401, replica: 32402, sentinels: [32411, 32412, 32413] };
const PREFIX = 'sentinel-test:';

describe.skipIf(Boolean(missing))('Redis behind Sentinel: failover under load', () => {
  let db: TestDb;
  let setup: SentinelSetup;
  let bff: RunningBff;

  beforeAll(async () => {
    db = await createTestDb(testBackends()[0]!);
    await insertCatalog(db.knex);
    setup = await startSentinelSetup(PORTS);
    bff = await startBff(
      loadConfig({
        BFF_PORT: '0',
        DATABASE_URL: db.url,
        // Host and port are not used with sentinels (this one does not exist); the db index is.
        REDIS_URL: 'redis://127.0.0.1:1/3',
        REDIS_SENTINELS: setup.sentinels,
        REDIS_SENTINEL_NAME: setup.name,
        CACHE_KEY_PREFIX: PREFIX,
        // Only pub/sub can tell this bff about a change in time.
        CACHE_GENERATION_POLL_MS: '3600000',
        ALLOWED_ORIGINS: ORIGIN,
        RATE_LIMIT_LOGIN_PER_ACCOUNT: '3',
        SEARCH_INDEX: 'off',
        LOG_LEVEL: 'silent',
      }),
      // The test's own connection: an in-memory SQLite database (no DATABASE_URL) is per connection.
      { knex: db.knex, logger: silentLogger },
    );
    await waitFor(() => bff.cache.redisStatus === 'ready', 'the bff to reach the master through the sentinels');
  }, 120_000);

  afterAll(async () => {
    await bff?.close();
    await setup?.stop();
    await db?.destroy();
  });

  const login = (username: string) =>
    fetch(bff.url + '/api/login', {
      method: 'POST',
      headers: { Origin: ORIGIN, 'Content-Type': 'application/json' },
      body: JSON.stringify({ username, password: 'not the password' }),
    });

  it('keeps answering the catalog, resubscribes to changes and keeps the sign-in limits across a failover', async () => {
    const primary = setup.client(PORTS.primary);
    await primary.connect();
    await primary.select(3);
    // The catalog is cached in the master (db 3 of REDIS_URL) ...
    expect((await fetch(bff.url + '/api/photos/1')).status).toBe(200);
    await waitFor(async () => (await primary.keys(`${PREFIX}*`)).length > 0, 'a cached listing in the master');
    // ... and three refused sign-ins for one account are counted there, and replicated.
    for (let i = 0; i < 3; i++) expect((await login('failover_user')).status).toBe(401);
    expect(await primary.call('WAIT', '1', '2000')).toBe(1);

    // Load: 4 clients reading listings until the failover is over.
    const statuses = new Map<number, number>();
    let slowest = 0;
    let running = true;
    const paths = ['/api/photos/1', '/api/photos/2', '/api/videos/1', '/api/vod/1', '/api/updates/1', '/api/models/A'];
    const load = Array.from({ length: 4 }, async (_, k) => {
      for (let i = k; running; i++) {
        const started = performance.now();
        const res = await fetch(bff.url + paths[i % paths.length]!).catch(() => undefined);
        await res?.arrayBuffer();
        slowest = Math.max(slowest, performance.now() - started);
        const status = res?.status ?? 0;
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    });

    const killedAt = performance.now();
    await setup.kill(PORTS.primary);
    await waitFor(async () => (await setup.masterPort().catch(() => 0)) === PORTS.replica, 'the sentinels to promote the replica', 30_000);
    const promotedMs = performance.now() - killedAt;

    // A catalog change announced now (by the ingest's publisher, also through the sentinels) reaches
    // this bff only if its subscriber found the new master and subscribed again.
    const generation = await bumpGeneration(db.knex);
    const ha = { REDIS_SENTINELS: setup.sentinels, REDIS_SENTINEL_NAME: setup.name };
    await waitFor(
      async () => {
        await publishGeneration('redis://127.0.0.1:1/3', PREFIX, generation, ha).catch(() => 0);
        return bff.cache.currentGeneration === generation;
      },
      'the change to arrive over pub/sub from the new master',
      30_000,
    );
    const resubscribedMs = performance.now() - killedAt;
    // Every bff connection (cache and rate-limit commands, the subscriber) is on the new master.
    const promoted = setup.client(PORTS.replica);
    await promoted.connect();
    await waitFor(async () => {
      const names: string[] = ((await promoted.call('CLIENT', 'LIST')) as string).match(/name=bff-\S+/g) ?? [];
      return names.filter((n) => n === 'name=bff-commands').length === 2 && names.includes('name=bff-subscriber');
    }, 'the bff connections on the new master');
    const reconnectedMs = performance.now() - killedAt;
    // The subscription itself is on the new master (a reconnect alone re-reads the generation from
    // the database, so the change arriving above does not prove it): its channel has our subscriber.
    const channel = generationChannel(PREFIX);
    await waitFor(
      async () => Number(((await promoted.call('PUBSUB', 'NUMSUB', channel)) as [string, number])[1]) >= 1,
      'the generation channel subscribed on the new master',
    );
    // The listing under the new generation is cached in the new master.
    expect((await fetch(bff.url + '/api/photos/1')).status).toBe(200);
    await promoted.select(3);
    await waitFor(async () => (await promoted.keys(`${PREFIX}c:${generation}:*`)).length > 0, 'a listing cached in the new master');
    const cachedMs = performance.now() - killedAt;
    running = false;
    await Promise.all(load);

    // The three refused sign-ins survived in the promoted replica: the fourth needs a proof of work.
    const counted = await promoted.keys(`${PREFIX}rl:3/900:login:user:failover_user`);
    expect(counted.length).toBe(1);
    // Polled: on a loaded machine one command can pass its timeout, and the limiter then fails open
    // (an answer beats a stall); the count itself is what must have survived.
    await expect.poll(async () => (await login('failover_user')).status, { timeout: 10_000, interval: 200 }).toBe(403);

    const answered = [...statuses.values()].reduce((a, b) => a + b, 0);
    console.log(
      `Sentinel failover (down-after 1000 ms): replica promoted ${promotedMs.toFixed(0)} ms after the kill, ` +
        `pub/sub resubscribed by ${resubscribedMs.toFixed(0)} ms, all bff connections on the new master by ${reconnectedMs.toFixed(0)} ms, listings cached in the new master by ${cachedMs.toFixed(0)} ms; ` +
        `${answered} catalog requests meanwhile: ${JSON.stringify(Object.fromEntries(statuses))}, slowest ${slowest.toFixed(0)} ms`,
    );
    expect([...statuses.keys()]).toEqual([200]);
  }, 90_000);
});
