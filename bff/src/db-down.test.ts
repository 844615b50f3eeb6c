import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Knex } from 'knex';
import { createKnex } from '@media-site/db';
import { testApp, type TestApp } from './test/harness';
import { freePort } from './test/redis-server';

describe('database down', () => {
  let knex: Knex;
  let t: TestApp;
  beforeAll(async () => {
    // A closed port: every connection attempt is refused.
    knex = createKnex(`mysql://root@127.0.0.1:${await freePort()}/nothing`);
    t = await testApp(knex);
  });
  afterAll(async () => {
    await t?.close();
    await knex?.destroy();
  });

  it.each(['/api/photos/1', '/api/search/anything', '/api/models/A', '/api/thumbnails/some-set'])(
    'answers %s with 503 JSON',
    async (url) => {
      const res = await t.request.get(url).timeout(5000).expect(503);
      expect(res.body).toEqual({ error: { code: 'unavailable', message: expect.stringMatching(/database/) } });
    },
  );

  it('still validates input first and reports not ready', async () => {
    await t.request.get('/api/photos/0').expect(400);
    await t.request.get('/healthz').expect(200);
    const ready = await t.request.get('/readyz').timeout(5000).expect(503);
    expect(ready.body.database).toBe('down');
  });
});
