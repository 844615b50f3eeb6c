import { expect, it } from 'vitest';
import { describeCatalog } from '../../test/catalog-suite';

describeCatalog('api routing and health', (ctx) => {
  it.each(['/api/nothing', '/api/photos', '/api/photos/1/2', '/api/', '/elsewhere'])('answers 404 JSON for %s', async (url) => {
    const res = await ctx().request.get(url).expect(404).expect('Content-Type', /json/);
    expect(res.body.error.code).toBe('not_found');
  });

  it('answers 405 for a wrong method on a known route', async () => {
    await ctx().request.post('/api/photos/1').expect(405);
  });

  it('echoes a safe X-Request-Id and generates one otherwise', async () => {
    const given = await ctx().request.get('/healthz').set('X-Request-Id', 'abc-123').expect(200);
    expect(given.headers['x-request-id']).toBe('abc-123');
    const generated = await ctx().request.get('/healthz').set('X-Request-Id', 'bad id with spaces').expect(200);
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('is ready when the database answers', async () => {
    const res = await ctx().request.get('/readyz').expect(200);
    expect(res.body).toMatchObject({ status: 'ready', database: 'up', redis: 'not configured' });
  });
});
