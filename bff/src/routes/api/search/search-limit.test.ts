import { expect, it } from 'vitest';
import { startAccountKit } from '../../../test/account-kit';
import { describeWithKit } from '../../../test/suite';

// A search the cache cannot answer counts and sorts every match: RATE_LIMIT_SEARCH_PER_MINUTE per
// address, cached answers free.
describeWithKit(
  'the search limit per address',
  (backend) => startAccountKit(backend, { RATE_LIMIT_SEARCH_PER_MINUTE: '3' }),
  (kit) => {
    it('answers 429 past the limit of computed searches, and still answers what is cached', async () => {
      const get = (url: string) => kit().request.get(url);
      for (const url of ['/api/search/alpha', '/api/search/beta?type=vods', '/api/search?tag=studio'])
        expect((await get(url)).status).toBe(200);
      const refused = await get('/api/search/gamma');
      expect(refused.status).toBe(429);
      expect(refused.body.error.message).toBe('too many searches from this address; wait a minute and try again');
      expect((await get('/api/search?tag=studio&sort=newest')).status).toBe(429);
      // Asked before: answered from the cache, not counted.
      for (let i = 0; i < 5; i++) expect((await get('/api/search/beta?type=vods')).status).toBe(200);
      // A bad request is refused before anything is computed or counted.
      expect((await get('/api/search/x?type=films')).status).toBe(400);
    });
  },
);
