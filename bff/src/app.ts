import Koa from 'koa';
import { createAccessLog, type AccessLog } from './access-log';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { CatalogCache } from './cache/catalog-cache';
import { readDeadline } from './read-deadline';
import { errorMiddleware, sendError } from './errors';
import { healthRouter } from './health';
import type { BffMetrics } from './metrics';
import { requestLog } from './request-log';
import { parseAddressList } from './security/address-list';
import { trustProxies } from './security/client';
import { apiRouter } from './routes/api/index';
import type { AccountDeps } from './account/deps';
import { internalRoutes } from './routes/internal/index';
import { pausedInMaintenance } from './maintenance';
import type { CatalogSearchIndex } from './routes/api/search/catalog-index';
import { PageAnchors } from './routes/api/shared/page-anchors';

export interface AppDeps {
  knex: Knex;
  /** Catalog reads (read replicas' router); default `knex`. Health, members and payments use `knex`. */
  readKnex?: Knex;
  cache: CatalogCache;
  logger: Logger;
  /** Keep every n-th sort key of each listing so deep pages need no deep OFFSET (see PageAnchors). */
  pageAnchorEvery?: number;
  /** Members, payments and webhooks (always set by startBff). */
  account?: AccountDeps;
  /** Prometheus request metrics, when METRICS_PORT is set. */
  metrics?: BffMetrics;
  /** Search answers from memory once built for the current generation (SEARCH_INDEX); absent = database only. */
  searchIndex?: CatalogSearchIndex | undefined;
  /** Reads not answered within this many ms get 503 (READ_DEADLINE_MS; 0 = none). */
  readDeadlineMs?: number;
  /** Deep-page anchors (default: built on demand; startBff passes ones it warms). */
  anchors?: PageAnchors;
  /** Where the per-request lines go (default: batched into `logger`). */
  accessLog?: AccessLog;
}

// Catalog-only apps (tests) have no TRUSTED_PROXIES: every peer is its own client.
const NO_PROXIES = parseAddressList('');

export function createApp(deps: AppDeps): Koa {
  const app = new Koa();
  // Errors are logged by errorMiddleware; koa's default handler would print stacks to stderr.
  app.silent = true;
  const health = healthRouter(deps);
  const anchors = deps.anchors ?? new PageAnchors(deps.pageAnchorEvery ?? 500, () => deps.cache.generation());
  const api = apiRouter({
    knex: deps.readKnex ?? deps.knex,
    cache: deps.cache,
    anchors,
    account: deps.account,
    searchIndex: deps.searchIndex,
  });
  trustProxies(app, deps.account?.settings.trustedProxies ?? NO_PROXIES);
  app.use(requestLog(deps.accessLog ?? createAccessLog(deps.logger)));
  if (deps.metrics) {
    deps.metrics.labelFrom(api);
    app.use(deps.metrics.observe);
  }
  app.use(errorMiddleware(deps.logger));
  app.use(readDeadline(deps.readDeadlineMs ?? 1800));
  app.use(health.routes());
  if (deps.account) app.use(internalRoutes(deps.account).routes());
  if (deps.account) app.use(pausedInMaintenance(deps.account.knex));
  app.use(api.routes());
  app.use(api.allowedMethods({ throw: true }));
  app.use((ctx) => {
    sendError(ctx, 404, 'not_found', 'not found');
  });
  return app;
}
