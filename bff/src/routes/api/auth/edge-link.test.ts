import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyEdgeUrl } from '@media-site/contracts/edge-url';
import { VIDEO, insertVideo, pay, signIn, startAccountKit, type AccountKit } from '../../../test/account-kit';

// With EDGE_URL_SECRET the download link answer carries an edge (CDN) URL beside the 48 h
// link: nginx secure_link format, for the same file, shorter-lived, under EDGE_BASE_URL.
describe('download links with edge URLs', () => {
  let kit: AccountKit;
  let cookie: string;
  const secret = 'bff-edge-secret-0123456789';
  beforeAll(async () => {
    kit = await startAccountKit('sqlite', {
      EDGE_URL_SECRET: secret,
      EDGE_URL_TTL_SECONDS: '600',
      EDGE_BASE_URL: 'https://cdn.example.com/',
    });
    await insertVideo(kit.db.knex);
    await pay(kit, { username: 'edge_member' });
    ({ cookie } = await signIn(kit, 'edge_member'));
  });
  afterAll(() => kit?.close());

  it('answers edgeUrl and edgeExpiresAt for the same file, valid EDGE_URL_TTL_SECONDS', async () => {
    const res = await kit.request
      .get('/api/download-link')
      .query({ path: `/members/video/${VIDEO.path}/${VIDEO.file}` })
      .set('Cookie', cookie);
    expect(res.status).toBe(200);
    const body = res.body as { url: string; expiresAt: string; edgeUrl: string; edgeExpiresAt: string };
    expect(body.url).toMatch(/^\/members\/video\/some%20set\/clip%20001\.mp4\?mid=/);
    const edge = new URL(body.edgeUrl);
    expect(edge.origin + edge.pathname).toBe('https://cdn.example.com/edge/members/video/some%20set/clip%20001.mp4');
    const verified = verifyEdgeUrl(secret, 'video/some set/clip 001.mp4', Object.fromEntries(edge.searchParams));
    expect(verified.ok).toBe(true);
    if (verified.ok) {
      expect(Math.abs(verified.expiresAt * 1000 - Date.now() - 600_000)).toBeLessThan(60_000);
      expect(Math.floor(Date.parse(body.edgeExpiresAt) / 1000)).toBe(verified.expiresAt);
    }
    expect(Date.parse(body.edgeExpiresAt)).toBeLessThan(Date.parse(body.expiresAt));
  });
});
