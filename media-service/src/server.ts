import { mkdir, realpath } from 'node:fs/promises';
import { hostname } from 'node:os';
import { createServer } from 'node:http';
import { answerClientErrors } from '@media-site/contracts/client-error';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import type { Logger } from 'pino';
import { RevocationList } from './access/revocation';
import { Purger, purgeEventOf } from './access/purge';
import { TakedownList } from './access/takedowns';
import { createApp, readiness, type AppDeps } from './app';
import type { MediaConfig } from './config';
import { createMediaMetrics, startMetricsServer } from './metrics';
import { S3Originals } from '@media-site/storage/s3';
import { withCdn } from '@media-site/storage/cdn';
import { VariantService } from './variants/service';
import { VariantStore } from './variants/store';
import type { VariantStoreOptions } from './variants/store';

export interface StartOptions {
  logger?: Logger;
  revocations?: RevocationList;
  takedowns?: TakedownList;
  /** Tests: simulate a full variant disk. */
  variantWrite?: VariantStoreOptions['write'];
  now?: () => number;
}

export interface RunningMedia {
  port: number;
  url: string;
  variants: VariantService;
  revocations: RevocationList;
  takedowns: TakedownList;
  /** Where /metrics answers, when METRICS_PORT is set. */
  metricsPort?: number;
  /** Stops accepting, lets in-flight requests finish (up to the grace period), then cuts the rest. */
  close(): Promise<void>;
}

export async function startMedia(config: MediaConfig, options: StartOptions = {}): Promise<RunningMedia> {
  const logger = options.logger ?? pino({ level: config.logLevel, base: { service: 'media' } });
  const realRoot = await realpath(config.mediaRoot);
  await mkdir(config.variantCacheDir, { recursive: true });
  const revocations = options.revocations ?? new RevocationList();
  // How the bff's console names this service in "media services' lists": this host and port.
  const instance = `${hostname()}:${config.port}`;
  if (config.revocationUrl) revocations.startPolling(config.revocationUrl, config.revocationIntervalSeconds, logger, instance);
  const takedowns = options.takedowns ?? new TakedownList();
  const purger = new Purger(config.purge, logger);
  if (purger.enabled) {
    takedowns.onChange = (added, removed) => {
      if (added.length > 0) void purger.purge(purgeEventOf('takedown', added));
      if (removed.length > 0) void purger.purge(purgeEventOf('restore', removed));
    };
  }
  if (config.takedownUrl) takedowns.startPolling(config.takedownUrl, config.takedownIntervalSeconds, logger, instance);
  const variants = new VariantService({
    store: new VariantStore({
      dir: config.variantCacheDir,
      memoryBytes: config.variantMemoryCacheBytes,
      minFreeBytes: config.variantMinFreeBytes,
      write: options.variantWrite,
    }),
    concurrency: config.variantConcurrency,
    queueMax: config.variantQueueMax,
    maxPixels: config.variantMaxPixels,
    logger,
  });
  // CDN_SIGNING=cloudfront: the same bucket, but members are sent to the distribution's signed URLs.
  const originals = config.s3 ? withCdn(new S3Originals(config.s3), config.cdn) : null;
  const deps: AppDeps = {
    logger,
    realRoot,
    keys: config.keys,
    revocations,
    takedowns,
    variants,
    offload: config.offload === 'nginx' ? { prefix: config.offloadPrefix } : null,
    originals,
    edgeSecret: config.edgeSecret,
    now: options.now,
  };
  const metrics =
    config.metricsPort === undefined
      ? null
      : createMediaMetrics(variants, {
          lists: { takedowns, revocations },
          ready: async () => (await readiness(deps)).ready,
          volumes: { media: realRoot, variants: config.variantCacheDir },
        });
  const app = createApp({ ...deps, observe: metrics?.observe });
  const server = createServer(app.callback());
  answerClientErrors(server);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const metricsServer =
    metrics && config.metricsPort !== undefined ? await startMetricsServer(metrics.registry, config.metricsPort, config.metricsHost) : null;
  logger.info(
    {
      port,
      mediaRoot: realRoot,
      offload: config.offload,
      storage: originals ? `s3:${config.s3?.bucket}${config.cdn ? ` via ${config.cdn.baseUrl}` : ''}` : 'local',
      metricsPort: metricsServer?.port,
    },
    'media service listening',
  );

  return {
    port,
    url: `http://${host}:${port}`,
    variants,
    revocations,
    takedowns,
    metricsPort: metricsServer?.port,
    close: async () => {
      revocations.stop();
      takedowns.stop();
      await metricsServer?.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const grace = setTimeout(() => server.closeAllConnections(), config.shutdownGraceMs);
      await closed;
      clearTimeout(grace);
      originals?.close();
    },
  };
}
