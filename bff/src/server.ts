import { chmod, lstat, unlink } from 'node:fs/promises';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { createKnex, createReadPool, parseReadUrls, type ReadPool } from '@media-site/db';
import { oldestUnsentAgeMs } from '@media-site/db/mail';
import { oldestPendingPurgeAgeMs } from '@media-site/db/content';
import { answerClientErrors } from '@media-site/contracts/client-error';
import { createAccessLog, type LogDestination } from './access-log';
import { createApp } from './app';
import { contentListName } from './routes/api/shared/content-page';
import { PageAnchors } from './routes/api/shared/page-anchors';
import { UPDATES_LIST, updatesAnchorBuilder } from './routes/api/updates/repository';
import type { CatalogCache } from './cache/catalog-cache';
import { startCatalogCache } from './cache/create';
import { cachedFastPath } from './cache/fast-path';
import { followFrontGeneration } from './cache/front-generation';
import type { BffConfig } from './config';
import { createLogOutput, knexLog } from './logger';
import { startMailSender } from './mail/start';
import { startReleaseDigest } from './mail/release-digest';
import { startPurgeSender } from './purge/start';
import { createBffMetrics, mailMetrics, startMetricsServer } from './metrics';
import { announceCurrency } from './payment-metrics';
import { startAccount } from './account/start';
import { catalogSearchIndex, type CatalogSearchIndex } from './routes/api/search/catalog-index';
import { frontDoorListener } from './security/client';
import { contentAnchorBuilder } from './routes/api/shared/repository';

export interface BffOverrides {
  knex?: Knex;
  logger?: Logger;
  /** The stream `logger` writes to: access lines are batched into it (else they go through the logger). */
  logDestination?: LogDestination;
}

export interface RunningBff {
  port: number;
  url: string;
  knex: Knex;
  /** Where catalog reads go: the read replicas' router with DATABASE_READ_URL, else `knex`. */
  readKnex: Knex;
  /** Absent with DATABASE_READ_URL unset. */
  readPool?: ReadPool | undefined;
  cache: CatalogCache;
  /** Absent with SEARCH_INDEX=off. */
  searchIndex?: CatalogSearchIndex | undefined;
  /** Where /metrics answers, when METRICS_PORT is set. */
  metricsPort?: number;
  /** Hands buffered access-log lines to the logger now (they go at least every second anyway). */
  flushAccessLog(): void;
  /** Stops accepting, lets in-flight requests finish, then closes the cache, Redis and knex. */
  close(): Promise<void>;
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

/**
 * BFF_FRONT_SOCKET: the front door's own way in (security/client.ts, frontDoorListener). A socket
 * left by a previous run is replaced; the file is the owner's alone (the folder should be too).
 */
async function listenFrontSocket(handler: RequestListener, path: string): Promise<Server> {
  const stale = await lstat(path).catch(() => undefined);
  if (stale?.isSocket()) await unlink(path);
  const server = createServer(frontDoorListener(handler));
  answerClientErrors(server);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
  await chmod(path, 0o600);
  return server;
}

function drain(server: Server, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      server.closeAllConnections();
      resolve();
    }, timeoutMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    // Keep-alive connections with no request in flight would hold close() open.
    server.closeIdleConnections();
  });
}

/** DATABASE_READ_URL's replicas, fresh when they have replayed the generation the cache knows. */
function startReadPool(config: BffConfig, primary: Knex, cache: CatalogCache, logger: Logger): ReadPool | undefined {
  const urls = parseReadUrls(config.DATABASE_READ_URL);
  if (urls.length === 0) return undefined;
  const pool = createReadPool(primary, urls, {
    minGeneration: () => cache.currentGeneration,
    checkMs: config.DATABASE_READ_CHECK_MS,
    readTimeoutMs: config.DATABASE_READ_TIMEOUT_MS,
    poolMax: config.DATABASE_POOL_MAX,
    knexLog: knexLog(logger),
    log: (level, fields, message) => logger[level](fields, message),
  });
  // After a change, look again at once: a replica that has it serves reads again without waiting a period.
  cache.onGenerationChange(() => void pool.check());
  logger.info({ replicas: pool.replicas.map((r) => r.name) }, 'catalog reads from read replicas');
  return pool;
}

/**
 * Deep-page anchors of every listing, rebuilt in the background whenever the catalog generation
 * changes (and at start), so the first deep page after a change is a short index read.
 */
function warmedAnchors(knex: Knex, cache: CatalogCache, every: number): PageAnchors {
  const anchors = new PageAnchors(every, () => cache.generation());
  for (const table of ['photosets', 'videos'] as const) {
    for (const order of ['alpha', 'date'] as const)
      anchors.register(contentListName(table, order), contentAnchorBuilder(knex, table, order));
  }
  anchors.register(contentListName('vods', 'date'), contentAnchorBuilder(knex, 'vods', 'date'));
  anchors.register(UPDATES_LIST, updatesAnchorBuilder(knex));
  cache.onGenerationChange(() => void anchors.warm());
  if (cache.currentGeneration !== undefined) void anchors.warm();
  return anchors;
}

export async function startBff(config: BffConfig, overrides: BffOverrides = {}): Promise<RunningBff> {
  const { logger, destination } = overrides.logger
    ? { logger: overrides.logger, destination: overrides.logDestination }
    : createLogOutput(config.LOG_LEVEL);
  const ownKnex = !overrides.knex;
  const knex = overrides.knex ?? createKnex(config.DATABASE_URL, { poolMax: config.DATABASE_POOL_MAX, log: knexLog(logger) });
  const { cache, close: closeCache } = await startCatalogCache(config, knex, logger);
  // Catalog reads (listings, search, anchors) may come from read replicas; the cache's generation,
  // members, sessions, payments and every write stay on the primary.
  const readPool = startReadPool(config, knex, cache, logger);
  const readKnex = readPool?.knex ?? knex;
  followFrontGeneration(cache, config.FRONT_GENERATION_DIR, logger);
  const account = startAccount(config, knex, logger);
  const metrics =
    config.METRICS_PORT === undefined
      ? undefined
      : createBffMetrics(cache.stats, {
          mailBacklogMs: () => oldestUnsentAgeMs(knex, Date.now()),
          purgeBacklogMs: () => oldestPendingPurgeAgeMs(knex, Date.now()),
          health: { knex, readPool, redisStatus: () => cache.redisStatus, generation: () => cache.currentGeneration },
        });
  if (metrics) announceCurrency(account.deps.settings.currencyCode);
  const mail = startMailSender(config, knex, logger, mailMetrics);
  // Release mails ("New from your models", opt-in) are queued by the bff that sends mail, at each catalog change.
  const digest = mail && startReleaseDigest({ knex, site: account.deps.settings.site, logger, onQueued: () => mail.nudge() });
  if (digest) cache.onGenerationChange(() => digest.nudge());
  const purges = startPurgeSender(config, knex, logger);
  const searchIndex =
    config.SEARCH_INDEX === 'on' ? catalogSearchIndex(readKnex, { maxRows: config.SEARCH_INDEX_MAX_ROWS, logger }) : undefined;
  const accessLog = createAccessLog(logger, { destination });
  const anchors = warmedAnchors(readKnex, cache, config.PAGE_ANCHOR_EVERY);
  const app = createApp({
    accessLog,
    anchors,
    knex,
    readKnex,
    cache,
    logger,
    pageAnchorEvery: config.PAGE_ANCHOR_EVERY,
    account: account.deps,
    metrics,
    searchIndex,
    readDeadlineMs: config.READ_DEADLINE_MS,
  });
  const koa = app.callback();
  const fromCache = cachedFastPath({ cache, accessLog, metrics });
  const handler: RequestListener = (req, res) => {
    if (!fromCache(req, res)) void koa(req, res);
  };
  const server = createServer(handler);
  answerClientErrors(server);
  server.keepAliveTimeout = 65_000;
  const address = await listen(server, config.BFF_PORT, config.BFF_HOST);
  const frontSocket = config.BFF_FRONT_SOCKET ? await listenFrontSocket(handler, config.BFF_FRONT_SOCKET) : undefined;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const metricsServer =
    metrics && config.METRICS_PORT !== undefined
      ? await startMetricsServer(metrics.registry, config.METRICS_PORT, config.METRICS_HOST)
      : undefined;
  logger.info(
    {
      port: address.port,
      host: address.address,
      frontSocket: config.BFF_FRONT_SOCKET,
      redis: cache.redisStatus,
      metricsPort: metricsServer?.port,
    },
    'bff listening',
  );
  let closing: Promise<void> | undefined;
  return {
    port: address.port,
    url: `http://${host}:${address.port}`,
    knex,
    readKnex,
    readPool,
    cache,
    searchIndex,
    metricsPort: metricsServer?.port,
    flushAccessLog: accessLog.flush,
    close() {
      closing ??= (async () => {
        await Promise.all([server, frontSocket].map((s) => s && drain(s, config.SHUTDOWN_TIMEOUT_MS)));
        // A send in flight finishes and is marked before the pool closes.
        await digest?.stop();
        await mail?.stop();
        await purges?.stop();
        accessLog.flush();
        await metricsServer?.close();
        await closeCache();
        account.close();
        // An index or anchor build still reading would otherwise fail against a closed pool.
        await searchIndex?.settled();
        await anchors.settled();
        await readPool?.close();
        if (ownKnex) await knex.destroy();
      })();
      return closing;
    },
  };
}
