import type { Knex } from 'knex';
import { Counter, Gauge, type Registry } from 'prom-client';
import { databaseAnswers, type ReadPool } from '@media-site/db';
import { backupStatus } from '@media-site/db/backup';
import { queueViews } from '@media-site/db/queues';

/**
 * What the alerts in monitoring/alerts.yml read from a bff, each value read when Prometheus
 * scrapes (a few indexed queries; every bff reports the same shared rows, so rules take max()).
 * A read that fails leaves the gauge as it was, except the database's own gauge, which says so.
 */
export interface HealthSources {
  knex: Knex;
  /** The catalog cache's Redis connection state ('ready', 'not configured', ...). */
  redisStatus: () => string;
  /** The generation every replica must have replayed to serve reads. */
  generation: () => number | undefined;
  readPool?: ReadPool;
}

// A waiting job older than this many kept is enough to find the oldest one not waiting on purpose (a retry's delay).
const WAITING_LOOKED_AT = 20;

/**
 * One read shared by the gauges of a scrape: they are collected together, so the first asks and
 * the others wait for the same answer; the next scrape reads afresh. A failed read is undefined.
 */
function oncePerScrape<T>(read: () => Promise<T>): () => Promise<T | undefined> {
  let reading: Promise<T | undefined> | undefined;
  return () =>
    (reading ??= read()
      .catch(() => undefined)
      .finally(() => {
        reading = undefined;
      }));
}

function queueGauges(registry: Registry, knex: Knex): void {
  const read = oncePerScrape(() => queueViews(knex, Date.now(), WAITING_LOOKED_AT));
  new Gauge({
    name: 'queue_jobs',
    help: 'Jobs of each background queue (encode, ingest, mail, purge) by state: queued, retrying, running, failed',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      const all = await read();
      for (const view of all ?? [])
        for (const state of ['queued', 'retrying', 'running', 'failed'] as const) this.set({ queue: view.name, state }, view.counts[state]);
    },
  });
  new Gauge({
    name: 'queue_oldest_waiting_seconds',
    help: 'Age of the oldest job waiting to be claimed (not one waiting out a retry delay); 0 when none',
    labelNames: ['queue'] as const,
    registers: [registry],
    async collect() {
      const all = await read();
      const now = Date.now();
      for (const view of all ?? []) {
        const oldest = view.waiting.find((job) => job.state === 'queued');
        this.set({ queue: view.name }, oldest ? Math.max(0, (now - oldest.since) / 1000) : 0);
      }
    },
  });
  new Gauge({
    name: 'queue_paused',
    help: '1 while an operator has paused the queue (ops queue pause, the console)',
    labelNames: ['queue'] as const,
    registers: [registry],
    async collect() {
      const all = await read();
      for (const view of all ?? []) this.set({ queue: view.name }, view.paused ? 1 : 0);
    },
  });
}

function replicaGauges(registry: Registry, pool: ReadPool, generation: () => number | undefined): void {
  new Gauge({
    name: 'bff_db_replica_up',
    help: '1 while the read replica answers its checks (replica: host:port/database from DATABASE_READ_URL)',
    labelNames: ['replica'] as const,
    registers: [registry],
    collect() {
      for (const r of pool.replicas) this.set({ replica: r.name }, r.up ? 1 : 0);
    },
  });
  new Gauge({
    name: 'bff_db_replica_behind',
    help: 'Catalog generations the replica has not replayed yet (it serves no reads meanwhile)',
    labelNames: ['replica'] as const,
    registers: [registry],
    collect() {
      const want = generation();
      for (const r of pool.replicas)
        this.set({ replica: r.name }, want === undefined || r.generation === undefined ? 0 : Math.max(0, want - r.generation));
    },
  });
  const seen = { replica: 0, primary: 0 };
  new Counter({
    name: 'bff_db_catalog_reads_total',
    help: 'Catalog reads by where they ran: replica, or primary (no replica fit, or its read failed)',
    labelNames: ['target'] as const,
    registers: [registry],
    collect() {
      const now = { replica: pool.replicas.reduce((sum, r) => sum + r.reads, 0), primary: pool.primaryReads() };
      for (const target of ['replica', 'primary'] as const) {
        this.inc({ target }, now[target] - seen[target]);
        seen[target] = now[target];
      }
    },
  });
}

export function registerHealthGauges(registry: Registry, sources: HealthSources): void {
  const { knex } = sources;
  new Gauge({
    name: 'bff_database_up',
    help: '1 while the primary database answers (what /readyz asks)',
    registers: [registry],
    async collect() {
      this.set((await databaseAnswers(knex)) ? 1 : 0);
    },
  });
  // Registered only with REDIS_URL: without Redis there is nothing to be down.
  if (sources.redisStatus() !== 'not configured')
    new Gauge({
      name: 'bff_redis_up',
      help: "1 while the catalog cache's Redis connection is ready",
      registers: [registry],
      collect() {
        this.set(sources.redisStatus() === 'ready' ? 1 : 0);
      },
    });
  new Gauge({
    name: 'bff_catalog_generation',
    help: 'The catalog generation this bff knows (NaN before its first read): what front-door links and replicas must reach',
    registers: [registry],
    collect() {
      this.set(sources.generation() ?? Number.NaN);
    },
  });
  const backups = oncePerScrape(() => backupStatus(knex, Date.now()));
  new Gauge({
    name: 'backup_last_good_timestamp_seconds',
    help: 'When the newest good backup set finished (Unix seconds; 0 before the first)',
    registers: [registry],
    async collect() {
      const status = await backups();
      if (status) this.set(status.lastOk ? status.lastOk.finishedAt / 1000 : 0);
    },
  });
  new Gauge({
    name: 'backup_failed_since_last_good',
    help: '1 when a backup run failed after the newest good set',
    registers: [registry],
    async collect() {
      const status = await backups();
      if (status) this.set(status.lastFailed ? 1 : 0);
    },
  });
  queueGauges(registry, knex);
  if (sources.readPool) replicaGauges(registry, sources.readPool, sources.generation);
}
