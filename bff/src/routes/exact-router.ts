import Router from '@koa/router';

/**
 * Every router of the bff: paths match exactly, letter case and trailing slash included. The front
 * door limits sign-in and payments by path; a router that also answered /api/LOGIN/ would let a
 * client walk around those limits.
 */
export function exactRouter(options: { prefix?: string } = {}): Router {
  return new Router({ ...options, strict: true, sensitive: true });
}
