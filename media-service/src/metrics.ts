import { statfs } from 'node:fs/promises';
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

/** What the service knows of its own health, read on each scrape (the alerts in monitoring/alerts.yml). */
export interface MediaHealthSources {
  /** The takedown and revocation lists: each one's age and the age past which /readyz fails. */
  lists: Record<string, { state(): { loaded: boolean; ageSeconds: number | null; maxAgeSeconds: number | null } }>;
  /** What /readyz answers. */
  ready: () => Promise<boolean>;
  /** Folders whose disk is watched: MEDIA_ROOT and the variant cache. */
  volumes: Record<string, string>;
}

function healthGauges(registry: Registry, sources: MediaHealthSources): void {
  new Gauge({
    name: 'media_ready',
    help: '1 while /readyz answers 200 (MEDIA_ROOT readable, both lists loaded and fresh)',
    registers: [registry],
    async collect() {
      this.set((await sources.ready().catch(() => false)) ? 1 : 0);
    },
  });
  const lists = Object.entries(sources.lists);
  new Gauge({
    name: 'media_list_age_seconds',
    help: 'Seconds since the takedown or revocation list was last confirmed with the bff (absent before the first load)',
    labelNames: ['list'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [list, source] of lists) {
        const { ageSeconds } = source.state();
        if (ageSeconds !== null) this.set({ list }, ageSeconds);
      }
    },
  });
  new Gauge({
    name: 'media_list_max_age_seconds',
    help: 'The age past which a list counts as late and /readyz fails (3 polls + 30 s)',
    labelNames: ['list'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [list, source] of lists) {
        const { maxAgeSeconds } = source.state();
        if (maxAgeSeconds !== null) this.set({ list }, maxAgeSeconds);
      }
    },
  });
  const volumes = Object.entries(sources.volumes);
  const disk = async (each: (volume: string, fs: { bavail: number; blocks: number; bsize: number }) => void) => {
    for (const [volume, dir] of volumes) {
      const fs = await statfs(dir).catch(() => null);
      if (fs) each(volume, fs);
    }
  };
  new Gauge({
    name: 'media_volume_free_bytes',
    help: 'Bytes free to this process on the disk holding MEDIA_ROOT (volume=media) or the variant cache (volume=variants)',
    labelNames: ['volume'] as const,
    registers: [registry],
    async collect() {
      await disk((volume, fs) => this.set({ volume }, fs.bavail * fs.bsize));
    },
  });
  new Gauge({
    name: 'media_volume_size_bytes',
    help: 'Size of the disk holding each watched folder',
    labelNames: ['volume'] as const,
    registers: [registry],
    async collect() {
      await disk((volume, fs) => this.set({ volume }, fs.blocks * fs.bsize));
    },
  });
}

export function createMediaMetrics(variants: VariantService, health?: MediaHealthSources): MediaMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'media_' });
  if (health) healthGauges(registry, health);
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
