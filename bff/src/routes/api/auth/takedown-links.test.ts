import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyEdgeUrl } from '@media-site/contracts/edge-url';
import { verifyDownloadUrl } from '@media-site/contracts/token';
import { runOpsCommand } from '@media-site/ops/cli';
import { restore, schedule, takeDown } from '@media-site/db/content';
import { grantVod, testBackends } from '@media-site/db/testing';
import { VIDEO, VOD, insertVideo, signIn, startAccountKit, type AccountKit } from '../../../test/account-kit';

// A takedown reaches what the bff mints. No download link or edge URL is signed for a taken-down
// item (404: to its buyer "removed", to anyone else as for a folder that never existed), /api/account lists a bought VOD that was
// taken down as removed, without its title, its folder or a download; and every link carries its member and
// mint time, the edge URL living EDGE_URL_TTL_SECONDS (5 minutes by default).
const SECRET = 'takedown-edge-secret-0123456789';
const VOD_FILE = `/members/vod/${VOD.path}/vod one.mp4`;
const VOD_ITEM = {
  path: VOD.path,
  updatename: 'VOD one',
  download: VOD_FILE,
  downloads: [{ label: 'Original', bytes: null, path: VOD_FILE }],
};

describe.each(testBackends())('links and the account after a takedown (%s)', (backend) => {
  let kit: AccountKit;
  let cookie: string;
  let memberId: number;
  beforeAll(async () => {
    kit = await startAccountKit(backend, { EDGE_URL_SECRET: SECRET });
    await insertVideo(kit.db.knex);
    expect(await run('member', 'add', 'tk_member', '--password', 'correct horse', '--days', '30')).toBe(0);
    memberId = Number((await kit.db.knex('members').where({ username: 'tk_member' }).first('id')).id);
    const vod = await kit.db.knex('vods').where({ path: VOD.path }).first('id');
    await grantVod(kit.db.knex, memberId, vod.id);
    ({ cookie } = await signIn(kit, 'tk_member'));
  });
  afterAll(() => kit?.close());

  const run = (...argv: string[]) => runOpsCommand(argv, { env: {}, knex: kit.db.knex, out: () => {}, err: () => {} });

  const link = (path: string) => kit.request.get('/api/download-link').query({ path }).set('Cookie', cookie);
  const change = { ref: { type: 'vod' as const, path: VOD.path }, actor: 'ops', reason: 'report R-9', now: Date.now() };

  it('signs the member and the mint time into the link and a 5-minute edge URL', async () => {
    const res = await link(`/members/video/${VIDEO.path}/${VIDEO.file}`);
    expect(res.status).toBe(200);
    const body = res.body as { url: string; edgeUrl: string; edgeExpiresAt: string };
    const url = new URL(body.url, 'http://x');
    const claims = verifyDownloadUrl(kit.deps.settings.mediaKeys, 'video/some set/clip 001.mp4', Object.fromEntries(url.searchParams));
    expect(claims).toEqual({
      ok: true,
      value: { memberId: String(memberId), expiresAt: expect.any(Number), issuedAt: expect.any(Number) },
    });
    if (claims.ok) expect(Math.abs(claims.value.issuedAt - Date.now() / 1000)).toBeLessThan(5);
    const edge = verifyEdgeUrl(SECRET, 'video/some set/clip 001.mp4', Object.fromEntries(new URL(body.edgeUrl, 'http://x').searchParams));
    expect(edge).toMatchObject({ ok: true, memberId: String(memberId) });
    expect(Math.abs(Date.parse(body.edgeExpiresAt) - Date.now() - 300_000)).toBeLessThan(10_000);
  });

  it('refuses to sign a link or edge URL for a taken-down VOD, and the account shows it removed', async () => {
    expect((await link(VOD_FILE)).status).toBe(200);
    const before = await kit.request.get('/api/account').set('Cookie', cookie);
    expect(before.body.vodItems).toEqual([VOD_ITEM]);

    await takeDown(kit.db.knex, change);
    const refused = await link(VOD_FILE);
    expect(refused.status).toBe(404);
    // Its buyer saw it and her account lists it as removed; anyone else gets a never-existing folder's answer.
    expect(refused.body).toEqual({ error: { code: 'not_found', message: 'this item has been removed' } });
    expect(await run('member', 'add', 'tk_other', '--password', 'correct horse', '--days', '30')).toBe(0);
    const other = await kit.request
      .get('/api/download-link')
      .query({ path: VOD_FILE })
      .set('Cookie', (await signIn(kit, 'tk_other')).cookie);
    expect({ status: other.status, body: other.body }).toEqual({
      status: 404,
      body: { error: { code: 'not_found', message: 'no such item' } },
    });
    // Another spelling of the same folder's files: still the item.
    expect((await link(`/members/vod/${VOD.path}/other.mp4`)).status).toBe(404);
    expect((await kit.request.get(`/api/vod/prename/${VOD.path}`)).status).toBe(404);

    const after = await kit.request.get('/api/account').set('Cookie', cookie);
    expect(after.status).toBe(200);
    expect(after.body.vodItems).toEqual([{ removed: true }]);
    expect(JSON.stringify(after.body)).not.toContain('VOD one');
    // Nor its folder, which is its title (in /api/me's list of owned VODs too).
    expect(JSON.stringify(after.body)).not.toContain(VOD.path);

    await restore(kit.db.knex, { ...change, now: Date.now() });
    expect((await link(VOD_FILE)).status).toBe(200);
    expect((await kit.request.get('/api/account').set('Cookie', cookie)).body.vodItems).toEqual([VOD_ITEM]);
  });

  it('signs no link for a VOD scheduled for later until it is released', async () => {
    await schedule(kit.db.knex, change.ref, Date.now() + 3_600_000);
    const refused = await link(VOD_FILE);
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual({ error: { code: 'not_found', message: 'no such item' } });
    await schedule(kit.db.knex, change.ref, Date.now() - 1000);
    expect((await link(VOD_FILE)).status).toBe(200);
  });
});
