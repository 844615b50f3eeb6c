import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOpsCommand } from '@media-site/ops/cli';
import { testBackends } from '@media-site/db/testing';
import { put, raw, startTempMedia, type TempMedia } from '@media-site/media-service/testing';
import { ORIGIN, VIDEO, insertVideo, signIn, startAccountKit, type AccountKit } from '../../bff/src/test/account-kit';

// Nothing a stolen session minted outlives "sign out everywhere", a password change or
// `member disable`. A hijacker who held the session has a 48 h download link, an edge URL and a
// media cookie; after the bump the media service refuses all three at its next revocation poll,
// while what the owner's browser gets afterwards keeps working.
const EDGE_SECRET = 'sign-out-edge-secret-0123456789';
// A released video's original (links are signed only for items that exist), and its URL.
const FILE = `/members/video/${VIDEO.path}/${VIDEO.file}`;
const FILE_URL = FILE.split('/').map(encodeURIComponent).join('/');
const DATA = Buffer.from('sign-out reach test bytes');

const setCookies = (res: { headers: Record<string, unknown> }) =>
  ([] as string[]).concat((res.headers['set-cookie'] as string[] | undefined) ?? []);
const mediaCookie = (set: string[]) => set.find((c) => c.startsWith('media_token='))?.split(';')[0] ?? '';
const cookieHeader = (set: string[]) => set.map((c) => c.split(';')[0]).join('; ');

describe.each(testBackends())('minted media access after sign-out everywhere, a password change, a disable (%s)', (backend) => {
  let kit: AccountKit;
  let server: Server;
  let fx: TempMedia;
  let revocationUrl: string;

  beforeAll(async () => {
    kit = await startAccountKit(backend, { EDGE_URL_SECRET: EDGE_SECRET });
    await insertVideo(kit.db.knex);
    server = kit.app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    revocationUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/internal/media-revocations`;
    fx = await startTempMedia(
      { MEDIA_REVOCATION_URL: revocationUrl, MEDIA_REVOCATION_INTERVAL_S: '5', EDGE_URL_SECRET: EDGE_SECRET },
      {},
      async (root) => {
        await put(root, FILE.slice('/members/'.length), DATA);
      },
    );
    // Ready as the media service counts it: both lists loaded once (until then it answers 503).
    while (!fx.media.revocations.loaded || !fx.media.takedowns.loaded) await new Promise((r) => setTimeout(r, 20));
  });
  afterAll(async () => {
    await fx?.stop();
    server?.close();
    await kit?.close();
  });

  const run = (...argv: string[]) => runOpsCommand(argv, { env: {}, knex: kit.db.knex, out: () => {}, err: () => {} });
  /** A member with a membership (added as an operator does: no payment needed here). */
  const member = async (username: string) =>
    expect(await run('member', 'add', username, '--password', 'correct horse', '--days', '30')).toBe(0);

  /** What a hijacker holding `cookie` takes away: a download link, an edge URL, the media cookie. */
  async function mint(cookie: string) {
    const me = await kit.request.get('/api/me').set('Cookie', cookie);
    expect(me.status).toBe(200);
    const link = await kit.request.get('/api/download-link').query({ path: FILE }).set('Cookie', cookie);
    expect(link.status).toBe(200);
    const body = link.body as { url: string; edgeUrl: string };
    return { url: body.url, edgeUrl: body.edgeUrl, media: mediaCookie(setCookies(me)) };
  }
  const answers = async (m: { url: string; edgeUrl: string; media: string }) => [
    (await raw(fx.media.url, m.url)).status,
    (await raw(fx.media.url, m.edgeUrl)).status,
    (await raw(fx.media.url, FILE_URL, { Cookie: m.media })).status,
  ];
  /** The media service's next revocation poll, now rather than in MEDIA_REVOCATION_INTERVAL_S. */
  const poll = () => fx.media.revocations.refreshFrom(revocationUrl);

  it('sign out everywhere: the hijacked link, edge URL and media cookie answer 403 after the next poll', async () => {
    await member('reach_out');
    const { cookie: stolen } = await signIn(kit, 'reach_out');
    const { cookie: owner } = await signIn(kit, 'reach_out');
    const minted = await mint(stolen);
    expect(await answers(minted)).toEqual([200, 200, 200]);

    expect((await kit.request.post('/api/account/sign-out-everywhere').set({ Origin: ORIGIN, Cookie: owner })).status).toBe(204);
    await poll();
    expect(await answers(minted)).toEqual([403, 403, 403]);

    // The owner signs in again: what that session mints works at once, in the same second.
    const { cookie: again } = await signIn(kit, 'reach_out');
    expect(await answers(await mint(again))).toEqual([200, 200, 200]);
  });

  it("a password change: the other session's minted access stops; this browser's new cookie and links work", async () => {
    await member('reach_pw');
    const { cookie: stolen } = await signIn(kit, 'reach_pw');
    const { cookie: owner } = await signIn(kit, 'reach_pw');
    const minted = await mint(stolen);
    const ownerBefore = await mint(owner);
    expect(await answers(minted)).toEqual([200, 200, 200]);

    const change = await kit.request
      .post('/api/account/password')
      .set({ Origin: ORIGIN, Cookie: owner })
      .send({ currentPassword: 'correct horse', newPassword: 'new horse battery' });
    expect(change.status).toBe(204);
    await poll();
    expect(await answers(minted)).toEqual([403, 403, 403]);
    // The owner's own earlier links were minted before the change too.
    expect(await answers(ownerBefore)).toEqual([403, 403, 403]);
    const fresh = cookieHeader(setCookies(change));
    expect(await answers(await mint(fresh))).toEqual([200, 200, 200]);
  });

  it('member disable, then enable: links minted before the disable stay refused', async () => {
    await member('reach_off');
    const { cookie } = await signIn(kit, 'reach_off');
    const minted = await mint(cookie);
    expect(await run('member', 'disable', 'reach_off', '--reason', 'stolen account')).toBe(0);
    await poll();
    expect(await answers(minted)).toEqual([403, 403, 403]);
    expect(await run('member', 'enable', 'reach_off')).toBe(0);
    await poll();
    expect(await answers(minted)).toEqual([403, 403, 403]);
    const { cookie: back } = await signIn(kit, 'reach_off');
    expect(await answers(await mint(back))).toEqual([200, 200, 200]);
  });
});
