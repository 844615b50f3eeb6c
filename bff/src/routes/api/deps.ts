import type { Knex } from 'knex';
import type { CatalogCache } from '../../cache/catalog-cache';
import type { AccountDeps } from '../../account/deps';
import type { CatalogSearchIndex } from './search/catalog-index';
import type { PageAnchors } from './shared/page-anchors';

/**
 * What apiRouter (index.ts) hands each /api resource: the router's own contract, so it lives beside
 * it. Building these from configuration is the app's wiring: server.ts, account/start.ts, app.ts.
 */
export interface ApiDeps {
  knex: Knex;
  cache: CatalogCache;
  /** Members, payments and webhooks; absent in catalog-only tests. */
  account?: AccountDeps;
  anchors: PageAnchors;
  /** In-process search index per catalog generation; absent = search reads the database. */
  searchIndex?: CatalogSearchIndex | undefined;
}
