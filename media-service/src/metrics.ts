import type { Context, Next } from 'koa';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { FAMILIES } from '@media-site/storage/paths';
import type { VariantService } from './variants/service';

/** A bounded route label: the media family and whether a variant was asked for, never the raw path. */
export function routeLabel(path: string, variant: boolean): string {
  if (path === '/healthz' || path === '/readyz') return path;
  const family = /^\/members\/([a-z]+)\//.exec(path)?.[1];
  if (!family || !(FAMILIES as readonly string[]).includes(family)) return 'other';
  return `/members/${family}/*${variant ? '?w' : ''}`;
}

export interface MediaMetrics {
  registry: Registry;
  /** Koa middleware timing every request by route label and status. */
  observe(ctx: Context, next: Next): Promise<void>;
}

export function createMediaMetrics(variants: VariantService): MediaMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'media_' });
  const duration = new Histogram({
    name: 'media_http_request_duration_seconds',
    help: 'Time to the response head (X-Accel-Redirect answers end there; nginx sends the bytes)',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [registry],
  });
  new Gauge({
    name: 'media_variant_queue_depth',
    help: 'Thumbnail variants waiting for a worker',
    registers: [registry],
    collect() {
      this.set(variants.load.waiting);
    },
  });
  new Gauge({
    name: 'media_variant_jobs_running',
    help: 'Thumbnail variants being rendered now',
    registers: [registry],
    collect() {
      this.set(variants.load.running);
    },
  });
  let rendersSeen = 0;
  new Counter({
    name: 'media_variant_renders_total',
    help: 'Variants rendered by sharp (cache misses)',
    registers: [registry],
    collect() {
      this.inc(variants.renders - rendersSeen);
      rendersSeen = variants.renders;
    },
  });
  return {
    registry,
    async observe(ctx, next) {
      const end = duration.startTimer();
      try {
        await next();
      } finally {
        end({ method: ctx.method, route: routeLabel(ctx.path, ctx.query.w !== undefined), status: String(ctx.status) });
      }
    },
  };
}

export { startMetricsServer, type MetricsServer } from '@media-site/contracts/metrics-server';
