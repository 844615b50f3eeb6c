import type { IncomingMessage, ServerResponse } from 'node:http';
import fresh from 'fresh';
import type { BffMetrics } from '../metrics';
import type { AccessLog } from '../access-log';
import { requestIdFrom } from '../request-log';
import type { CachedBody, CatalogCache } from './catalog-cache';

/** The path of a request target, query left off: the key most replayable answers are remembered under. */
export function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}

/**
 * If-None-Match against our ETag (lists, weak tags, `*`): the `fresh` package that Koa's `ctx.fresh`
 * runs, handed If-None-Match alone. `ctx.fresh` also reads the request's `Cache-Control: no-cache`
 * as "send it all", but fetch() adds that to every request that sets If-None-Match by hand (the
 * media service's list poller does), and RFC 9111 addresses it to caches, not to the origin.
 */
export function notModified(ifNoneMatch: string | undefined, etag: string): boolean {
  return ifNoneMatch !== undefined && fresh({ 'if-none-match': ifNoneMatch }, { etag });
}

/**
 * The one writer of a cached catalog answer: for the route that produced it (inside Koa, see
 * `replayable`) and for every replay below; 304 with no body when the client holds it already.
 */
export function writeCachedAnswer(req: IncomingMessage, res: ServerResponse, answer: CachedBody): void {
  res.setHeader('ETag', answer.etag);
  res.setHeader('Cache-Control', 'no-cache');
  // The front door stores an answer only when this matches the generation in its cache key
  // (nginx/nginx.conf.template, "Public catalog answers"); absent when caching is off.
  if (answer.generation !== undefined) res.setHeader('X-Catalog-Generation', String(answer.generation));
  if (notModified(req.headers['if-none-match'], answer.etag)) {
    res.statusCode = 304;
    res.end();
    return;
  }
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', answer.body.length);
  res.end(answer.body);
}

/**
 * In front of Koa, the only replay of cached answers: a GET for a path a `replayable` route answered
 * before is answered straight from node:http, with the same writer, request id, access-log line and
 * metrics as the Koa chain, but without building a Koa context. Everything else (a miss, another
 * method, an odd request target) returns false and goes to Koa.
 *
 * Why: a cached listing through Koa cost ~1.8x a bare Koa app's CPU per request (request id,
 * log line, compose, context objects); the goal is >= 0.8x bare Koa's requests/s (the design document, kept outside this repository).
 */
export function cachedFastPath(deps: { cache: CatalogCache; accessLog: AccessLog; metrics?: BffMetrics | undefined }) {
  const { cache, accessLog, metrics } = deps;
  return function answerFromCache(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'GET' || !req.url) return false;
    const path = pathOf(req.url);
    // The whole target: a route whose answer depends on its query (search filters) remembers it
    // whole; the others remember the path alone, so a stray query string goes to Koa, never to
    // another query's answer.
    const hit = cache.peekPath(req.url);
    if (!hit) return false;
    const started = performance.now();
    const requestId = requestIdFrom(req.headers['x-request-id']);
    res.setHeader('X-Request-Id', requestId);
    writeCachedAnswer(req, res, hit);
    accessLog.line(requestId, 'GET', req.url, res.statusCode, started);
    metrics?.record('GET', path, res.statusCode, started);
    return true;
  };
}
