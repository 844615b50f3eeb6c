import type Router from '@koa/router';
import { exactRouter } from './routes/exact-router';
import type { Knex } from 'knex';
import { databaseAnswers } from '@media-site/db';
import type { CatalogCache } from './cache/catalog-cache';

export interface HealthDeps {
  knex: Knex;
  cache: CatalogCache;
}

/** /healthz: the process answers. /readyz: the database answers; Redis is reported, never fatal. */
export function healthRouter({ knex, cache }: HealthDeps): Router {
  return exactRouter()
    .get('/healthz', (ctx) => {
      ctx.body = { status: 'ok' };
    })
    .get('/readyz', async (ctx) => {
      const database = (await databaseAnswers(knex)) ? 'up' : 'down';
      ctx.status = database === 'up' ? 200 : 503;
      ctx.body = {
        status: database === 'up' ? 'ready' : 'unavailable',
        database,
        redis: cache.redisStatus,
        generation: cache.currentGeneration ?? null,
        cache: cache.stats,
      };
    });
}
