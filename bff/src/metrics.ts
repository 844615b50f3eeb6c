import type Router from '@koa/router';
import type { Context, Next } from 'koa';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { CacheStats } from './cache/catalog-cache';
import { paymentRegistry } from './payment-metrics';
import { playerRegistry } from './player-metrics';
import { registerHealthGauges, type HealthSources } from './health-metrics';

// One /metrics listener for both services.
export { startMetricsServer, type MetricsServer } from '@media-site/contracts/metrics-server';

export { paymentOutcomes, recordPaymentOutcome } from './payment-metrics';

/** Mail the outbox worker sent or could not send (bff/src/mail/worker.ts); module-level like the payment outcomes. */
export const mailRegistry = new Registry();
const mailSent = new Counter({
  name: 'mail_sent_total',
  help: 'Mails the relay accepted (or written as files), by template',
  labelNames: ['template'] as const,
  registers: [mailRegistry],
});
const mailFailures = new Counter({
  name: 'mail_send_failures_total',
  help: 'Failed sends: relay_down (unreachable; the mail waits), temporary (4xx; retried with backoff), permanent (5xx; not sent)',
  labelNames: ['kind'] as const,
  registers: [mailRegistry],
});
for (const kind of ['relay_down', 'temporary', 'permanent']) mailFailures.inc({ kind }, 0);

export const mailMetrics = {
  sent: (template: string) => mailSent.inc({ template }),
  failure: (kind: 'relay_down' | 'temporary' | 'permanent') => mailFailures.inc({ kind }),
};

const PAYMENT_STEPS: Record<string, string> = {
  '/api/get_ccbill_token': 'frontend_token',
  '/api/get_ccbill_back_token': 'backend_token',
  '/api/process_payment': 'charge',
};

// A repeated path is labelled from memory; past this many distinct paths, matching runs each time.
const LABEL_MEMO_MAX = 20_000;

export interface BffMetrics {
  registry: Registry;
  /** Koa middleware: time every request, labelled by the route pattern (never the raw URL). */
  observe(ctx: Context, next: Next): Promise<void>;
  /** The same, for an answer sent outside Koa (the cached fast path): seconds since `started`. */
  record(method: string, path: string, status: number, started: number): void;
  /** The API router whose patterns label requests (createApp hands it over). */
  labelFrom(routes: Router): void;
}

export interface BffMetricsSources {
  /** Milliseconds the oldest mail not yet sent has waited, read on each scrape (0: none waiting). */
  mailBacklogMs?: () => Promise<number>;
  /** Milliseconds the oldest purge not yet delivered has waited (0: none). */
  purgeBacklogMs?: () => Promise<number>;
  /** The database, Redis, queue, backup and replica gauges the alert rules read. */
  health?: HealthSources;
}

/** A gauge of seconds read from the database on each scrape; when it is unreachable the last value stands. */
function backlogGauge(registry: Registry, name: string, help: string, readMs: () => Promise<number>): void {
  new Gauge({
    name,
    help,
    registers: [registry],
    async collect() {
      try {
        this.set((await readMs()) / 1000);
      } catch {
        // keep the last value (the scrape still answers)
      }
    },
  });
}

export function createBffMetrics(cacheStats: CacheStats, sources: BffMetricsSources = {}): BffMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'bff_' });
  const { mailBacklogMs, purgeBacklogMs, health } = sources;
  if (health) registerHealthGauges(registry, health);
  if (mailBacklogMs)
    backlogGauge(
      registry,
      'mail_outbox_oldest_unsent_seconds',
      'Age of the oldest mail waiting in the outbox (0: none); grows while the relay is down or no worker runs',
      mailBacklogMs,
    );
  if (purgeBacklogMs)
    backlogGauge(
      registry,
      'purge_outbox_oldest_pending_seconds',
      'Age of the oldest CDN purge not yet accepted (0: none); past PURGE_DELAY_MS it grows while the CDN refuses or no worker runs',
      purgeBacklogMs,
    );
  const duration = new Histogram({
    name: 'bff_http_request_duration_seconds',
    help: 'Request duration by route pattern',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [registry],
  });
  const paymentRequests = new Counter({
    name: 'bff_payment_requests_total',
    help: 'Payment step requests by HTTP status (200 ok, 422 refused, 429 limited, 5xx failed)',
    labelNames: ['step', 'status'] as const,
    registers: [registry],
  });
  const seen: Partial<Record<keyof CacheStats, number>> = {};
  const fromStats = (name: string, help: string, field: keyof CacheStats) =>
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        const now = cacheStats[field];
        this.inc(now - (seen[field] ?? 0));
        seen[field] = now;
      },
    });
  const hits = new Counter({
    name: 'bff_cache_hits_total',
    help: 'Catalog cache hits by tier (hit ratio: hits / (hits + misses))',
    labelNames: ['tier'] as const,
    registers: [registry],
    collect() {
      for (const [tier, field] of [
        ['local', 'localHits'],
        ['redis', 'redisHits'],
      ] as const) {
        const now = cacheStats[field];
        this.inc({ tier }, now - (seen[field] ?? 0));
        seen[field] = now;
      }
    },
  });
  hits.inc({ tier: 'local' }, 0);
  fromStats('bff_cache_misses_total', 'Catalog cache misses (database reads)', 'misses');
  fromStats('bff_cache_coalesced_total', 'Requests that waited on another request for the same miss', 'coalesced');
  fromStats('bff_cache_redis_errors_total', 'Redis commands that failed or timed out (answered from the database)', 'redisErrors');

  // Route patterns from the router itself: ctx._matchedRoute is not enough, the cached fast path answers
  // repeats before routing.
  let layers: Array<{ pattern: string; match(path: string): boolean }> = [];
  const memo = new Map<string, string>();
  const routeOf = (path: string): string => {
    const known = memo.get(path);
    if (known !== undefined) return known;
    const label = path === '/healthz' || path === '/readyz' ? path : (layers.find((layer) => layer.match(path))?.pattern ?? 'other');
    if (memo.size < LABEL_MEMO_MAX) memo.set(path, label);
    return label;
  };

  const observed = (method: string, path: string, statusCode: number, started: number) => {
    const route = routeOf(path);
    const status = String(statusCode);
    duration.observe({ method, route, status }, (performance.now() - started) / 1000);
    const step = PAYMENT_STEPS[route];
    if (step) paymentRequests.inc({ step, status });
  };

  return {
    registry: Registry.merge([registry, paymentRegistry, mailRegistry, playerRegistry]),
    labelFrom(routes) {
      layers = routes.stack.flatMap((layer) =>
        layer.methods.length > 0 && typeof layer.path === 'string' ? [{ pattern: layer.path, match: (p: string) => layer.match(p) }] : [],
      );
      memo.clear();
    },
    async observe(ctx, next) {
      const started = performance.now();
      try {
        await next();
      } finally {
        observed(ctx.method, ctx.path, ctx.status, started);
      }
    },
    record: observed,
  };
}
