import { Validator } from '@seriousme/openapi-schema-validator';
import type Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestDb } from '@media-site/db/testing';
import { loadConfig } from '../../../config';
import { startAccountApp } from '../../../test/account-app';
import { buildDocument, openApiPath, openApiText } from './document';
import type { Resource } from './operation';

// The document against the OpenAPI 3.1 schema, and against the routes the app really mounts: a
// route without a description, or a description without a route, fails here.

type Layer = { path: string; methods: string[] };

/** Every `METHOD /api/...` the app's routers answer (HEAD is GET's). */
function mountedRoutes(app: Koa): string[] {
  const routes: string[] = [];
  for (const middleware of app.middleware as Array<{ router?: { stack: Layer[] } }>) {
    for (const layer of middleware.router?.stack ?? []) {
      if (!layer.path.startsWith('/api/')) continue;
      for (const method of layer.methods) if (method !== 'HEAD') routes.push(`${method} ${openApiPath(layer.path)}`);
    }
  }
  return routes.sort();
}

function describedRoutes(doc: Record<string, unknown>): string[] {
  const paths = doc.paths as Record<string, Record<string, unknown>>;
  return Object.entries(paths)
    .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
    .sort();
}

describe('the OpenAPI document', () => {
  let started: Awaited<ReturnType<typeof startAccountApp>>;
  beforeAll(async () => {
    started = await startAccountApp(await createTestDb('sqlite'), loadConfig({}), { now: Date.now });
  });
  afterAll(async () => {
    await started.close();
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(JSON.parse(openApiText()) as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    const ids = Object.values(buildDocument().paths as Record<string, Record<string, { operationId: string }>>).flatMap((item) =>
      Object.values(item).map((op) => op.operationId),
    );
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('describes every /api route the app mounts, and no other', () => {
    const mounted = mountedRoutes(started.app);
    const described = describedRoutes(buildDocument());
    expect(mounted.length).toBeGreaterThan(90);
    expect({
      undescribed: mounted.filter((r) => !described.includes(r)),
      unmounted: described.filter((r) => !mounted.includes(r)),
    }).toEqual({
      undescribed: [],
      unmounted: [],
    });
  });

  it('notices a route that is mounted but not described, and one described but not mounted', () => {
    const ghost: Resource = {
      tag: 'ghost',
      description: 'not a route',
      operations: [{ method: 'get', path: '/api/ghost/:id', summary: 'nothing', answers: { 204: null }, errors: [] }],
    };
    const described = describedRoutes(buildDocument([ghost]));
    expect(described).toEqual(['GET /api/ghost/{id}']);
    expect(mountedRoutes(started.app)).not.toContain('GET /api/ghost/{id}');
  });

  it('describes a path pattern as the route reads it: no regex flag is lost', () => {
    const paths = buildDocument().paths as Record<string, { get: { parameters: Array<{ schema: { pattern: string } }> } }>;
    const letter = paths['/api/models/{letter}']!.get.parameters[0]!.schema.pattern;
    expect(new RegExp(letter, 'u').test('m')).toBe(true);
    const flagged: Resource = {
      tag: 'flagged',
      description: 'a case-insensitive pattern',
      operations: [
        {
          method: 'get',
          path: '/api/x/:id',
          summary: 'x',
          params: { id: z.string().regex(/^[a-z]+$/i) },
          answers: { 204: null },
          errors: [],
        },
      ],
    };
    expect(() => buildDocument([flagged])).toThrow(/flags/);
  });

  it('is served at GET /api/openapi.json, revalidated by its ETag', async () => {
    const res = await started.request.get('/api/openapi.json').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toEqual(JSON.parse(openApiText()));
    const etag = res.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    await started.request.get('/api/openapi.json').set('If-None-Match', etag).expect(304);
  });
});
