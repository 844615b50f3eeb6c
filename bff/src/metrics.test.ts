import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '@media-site/db/testing';
import { loadConfig } from './config';
import { recordPaymentOutcome } from './metrics';
import { enqueueMail } from '@media-site/db/mail';
import { recordBackupRun } from '@media-site/db/backup';
import { startBff, type RunningBff } from './server';
import { silentLogger } from './test/harness';
import { insertCatalog } from './test/fixtures';

describe('/metrics', () => {
  let db: TestDb;
  let bff: RunningBff;
  beforeAll(async () => {
    db = await createTestDb('sqlite');
    await insertCatalog(db.knex);
    const config = loadConfig({ DATABASE_URL: db.url, BFF_PORT: '0', METRICS_PORT: '0', LOG_LEVEL: 'silent' });
    bff = await startBff(config, { knex: db.knex, logger: silentLogger });
  });
  afterAll(async () => {
    await bff?.close();
    await db?.destroy();
  });

  const scrape = async () => {
    const res = await fetch(`http://127.0.0.1:${bff.metricsPort}/metrics`);
    expect(res.status).toBe(200);
    return res.text();
  };

  it('labels request durations by route pattern, cached repeats included', async () => {
    for (const page of [1, 2, 2, 2]) await fetch(`${bff.url}/api/photos/${page}`).then((r) => r.arrayBuffer());
    await fetch(`${bff.url}/api/photos/0`).then((r) => r.arrayBuffer());
    await fetch(`${bff.url}/no/such/thing`).then((r) => r.arrayBuffer());
    const text = await scrape();
    expect(text).toContain('bff_http_request_duration_seconds_count{method="GET",route="/api/photos/:page",status="200"} 4');
    expect(text).toContain('bff_http_request_duration_seconds_count{method="GET",route="/api/photos/:page",status="400"} 1');
    expect(text).toContain('bff_http_request_duration_seconds_count{method="GET",route="other",status="404"} 1');
    expect(text).not.toMatch(/route="\/api\/photos\/\d/);
  });

  it('reports cache hits and misses as counters', async () => {
    const text = await scrape();
    const value = (line: RegExp) => Number(line.exec(text)?.[1]);
    expect(value(/^bff_cache_misses_total (\d+)$/m)).toBeGreaterThanOrEqual(2);
    expect(value(/^bff_cache_hits_total\{tier="local"\} (\d+)$/m)).toBeGreaterThanOrEqual(2);
    // Counters never go down between scrapes.
    await fetch(`${bff.url}/api/photos/1`).then((r) => r.arrayBuffer());
    const later = await scrape();
    expect(Number(/^bff_cache_hits_total\{tier="local"\} (\d+)$/m.exec(later)?.[1])).toBeGreaterThan(
      value(/^bff_cache_hits_total\{tier="local"\} (\d+)$/m),
    );
  });

  it('counts payment steps by status, and outcomes the payments code records', async () => {
    await fetch(`${bff.url}/api/process_payment`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' }).then(
      (r) => r.arrayBuffer(),
    );
    recordPaymentOutcome('charge', 'refused');
    const text = await scrape();
    expect(text).toMatch(/bff_payment_requests_total\{step="charge",status="\d{3}"\} 1/);
    expect(text).toMatch(/bff_payment_outcomes_total\{step="charge",outcome="refused"\} \d+/);
  });

  it('reports the database, the queues and the last good backup for the alert rules', async () => {
    const before = await scrape();
    expect(before).toMatch(/^bff_database_up 1$/m);
    expect(before).toMatch(/^backup_last_good_timestamp_seconds 0$/m);
    // No REDIS_URL here: no Redis gauge rather than a false "down".
    expect(before).not.toMatch(/^bff_redis_up /m);
    await enqueueMail(
      db.knex,
      { key: 'metrics:1', to: 'a@example.com', template: 'welcome', subject: 's', text: 't', html: '<p>t</p>' },
      Date.now() - 90_000,
    );
    const finishedAt = Date.now() - 3_600_000;
    await recordBackupRun(db.knex, {
      status: 'ok',
      setId: 's1',
      host: 'h',
      startedAt: finishedAt - 1000,
      finishedAt,
      rows: 1,
      files: 1,
      bytes: 1,
      copiedBytes: 1,
    });
    const text = await scrape();
    expect(text).toMatch(/^queue_jobs\{queue="mail",state="queued"\} 1$/m);
    expect(text).toMatch(/^queue_jobs\{queue="encode",state="failed"\} 0$/m);
    expect(Number(/^queue_oldest_waiting_seconds\{queue="mail"\} (\S+)$/m.exec(text)?.[1])).toBeGreaterThanOrEqual(90);
    expect(text).toMatch(/^queue_paused\{queue="purge"\} 0$/m);
    expect(text).toMatch(new RegExp(`^backup_last_good_timestamp_seconds ${finishedAt / 1000}$`, 'm'));
    expect(text).toMatch(/^backup_failed_since_last_good 0$/m);
  });

  it('is off unless METRICS_PORT is set', async () => {
    const plain = await startBff(loadConfig({ DATABASE_URL: db.url, BFF_PORT: '0', LOG_LEVEL: 'silent' }), {
      knex: db.knex,
      logger: silentLogger,
    });
    try {
      expect(plain.metricsPort).toBeUndefined();
    } finally {
      await plain.close();
    }
  });
});
