import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKnex, migrateLatest } from '@media-site/db';
import { createTestDb, testBackends, type TestDb } from '@media-site/db/testing';
import { repoRoot } from '../../scripts/lib/site';
import { freePort, spawnTs, waitHealthy, type Child } from '../../scripts/lib/process';

// The provider delivers the same event to two bff replicas at once. Both must answer 200
// (one "stored", one "duplicate"), the event must apply once, and no log line may carry its fields.
const ROUNDS = 40;
const SUBSCRIPTION = '910000000000000001';
const MARKER = 'race-marker-field';

interface Bff {
  child: Child;
  url: string;
}

async function startBff(databaseUrl: string, lines: string[]): Promise<Bff> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    BFF_PORT: String(port),
    LOG_LEVEL: 'info',
    SEARCH_INDEX: 'off',
  };
  delete env.REDIS_URL;
  const child = spawnTs(`bff:${port}`, resolve(repoRoot, 'bff/src/main.ts'), env, (_name, line) => lines.push(line));
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(`${url}/healthz`, child);
  return { child, url };
}

describe.each(testBackends())('the same webhook delivered to two bff processes at once (%s)', (backend) => {
  let db: TestDb | undefined;
  let knex: Knex;
  let sqliteDir: string | undefined;
  let databaseUrl: string;
  const bffs: Bff[] = [];
  const lines: string[] = [];
  let paidUntil: number;

  beforeAll(async () => {
    if (backend === 'mysql') {
      db = await createTestDb('mysql');
      knex = db.knex;
      databaseUrl = db.url;
    } else {
      // A file both processes open: the embedded shape run twice.
      sqliteDir = mkdtempSync(join(tmpdir(), 'webhook-race-'));
      databaseUrl = `sqlite:${join(sqliteDir, 'catalog.sqlite')}`;
      knex = createKnex(databaseUrl);
      await migrateLatest(knex);
    }
    const now = Date.now();
    paidUntil = now + 86_400_000;
    const [memberId] = await knex('members').insert({ username: 'racer', password_hash: 'x', email: 'r@example.com', created_at: now });
    await knex('subscriptions').insert({
      member_id: Number(memberId),
      kind: 'membership',
      vod_id: null,
      provider_subscription_id: SUBSCRIPTION,
      status: 'active',
      paid_until: paidUntil,
      created_at: now,
      updated_at: now,
    });
    bffs.push(await startBff(databaseUrl, lines), await startBff(databaseUrl, lines));
  });

  afterAll(async () => {
    await Promise.all(bffs.map((b) => b.child.stop()));
    if (db) await db.destroy();
    else await knex?.destroy();
    if (sqliteDir) rmSync(sqliteDir, { recursive: true, force: true });
  });

  const deliver = (url: string, transactionId: string) =>
    fetch(`${url}/api/ccbill/webhook?clientAccnum=900000&clientSubacc=0&eventType=RenewalSuccess`, {
      method: 'POST',
      // The bffs trust loopback as a proxy; this is the address the provider's delivery came from.
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '64.38.240.17' },
      body: JSON.stringify({
        clientAccnum: 900000,
        clientSubacc: 0,
        subscriptionId: SUBSCRIPTION,
        transactionId,
        billedAmount: '14.99',
        note: MARKER,
      }),
    }).then(async (res) => ({ status: res.status, body: (await res.json()) as { status?: string } }));

  it(`answers 200 stored + 200 duplicate in each of ${ROUNDS} simultaneous pairs, applies once, logs no payload`, async () => {
    const [a, b] = bffs as [Bff, Bff];
    const outcomes: string[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const id = `race-${backend}-${round}`;
      const answers = await Promise.all([deliver(a.url, id), deliver(b.url, id)]);
      outcomes.push(
        answers
          .map((r) => `${r.status} ${r.body.status ?? JSON.stringify(r.body)}`)
          .sort()
          .join(' + '),
      );
    }
    const tally = outcomes.reduce<Record<string, number>>((acc, o) => ({ ...acc, [o]: (acc[o] ?? 0) + 1 }), {});
    expect(tally, JSON.stringify(tally)).toEqual({ '200 duplicate + 200 stored': ROUNDS });
    expect(Number((await knex('webhook_events').count({ n: '*' }).first())?.n)).toBe(ROUNDS);
    // Each round's renewal (no nextRenewalDate) adds one 30-day period, exactly once.
    const sub = await knex('subscriptions').where({ provider_subscription_id: SUBSCRIPTION }).first('paid_until');
    expect(Number(sub.paid_until)).toBe(paidUntil + ROUNDS * 30 * 86_400_000);
    const errors = lines.filter((l) => /"level":(?:50|60)/.test(l));
    expect(errors, errors.join('\n')).toEqual([]);
    expect(lines.filter((l) => l.includes(MARKER) || l.includes(SUBSCRIPTION))).toEqual([]);
  });
});
