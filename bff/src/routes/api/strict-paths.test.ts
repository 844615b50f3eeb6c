import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN, startAccountKit, type AccountKit } from '../../test/account-kit';

// The front door limits /api/login and the payment steps by exact path; a router that also
// answered /api/LOGIN/ would let a client walk around those limits. Every path is matched exactly:
// the spec's routes are lower case, without a trailing slash.
describe('the API matches paths exactly (sqlite)', () => {
  let kit: AccountKit;
  beforeAll(async () => {
    kit = await startAccountKit('sqlite');
  });
  afterAll(() => kit?.close());

  const body = { username: 'nobody', password: 'wrong password' };

  it.each([
    '/api/LOGIN',
    '/api/login/',
    '/api/LOGIN/',
    '/api/Login',
    '/api/Process_Payment',
    '/api/process_payment/',
    '/api/GET_CCBILL_TOKEN/',
    '/API/login',
  ])('answers POST %s with a JSON 404', async (path) => {
    const res = await kit.request.post(path).set('Origin', ORIGIN).send(body);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });

  it.each(['/api/Photos/1', '/api/photos/1/', '/api/UPDATES/1', '/api/me/', '/READYZ', '/internal/Media-Revocations'])(
    'answers GET %s with a 404',
    async (path) => {
      expect((await kit.request.get(path)).status).toBe(404);
    },
  );

  it('still answers the exact paths', async () => {
    expect((await kit.request.post('/api/login').set('Origin', ORIGIN).send(body)).status).toBe(401);
    expect((await kit.request.get('/api/photos/1')).status).toBe(200);
    expect((await kit.request.get('/readyz')).status).toBe(200);
    expect((await kit.request.get('/internal/media-revocations')).status).toBe(200);
  });
});
