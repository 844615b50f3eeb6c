import { expect, it } from 'vitest';
import { runOpsCommand } from '@media-site/ops/cli';
import { verifySessionToken } from '@media-site/contracts/token';
import { ORIGIN, VOD, pay, sendWebhook, signIn, startAccountKit } from '../test/account-kit';
import { describeWithKit } from '../test/suite';
import { mediaTokenOf } from '../test/cookies';

const HOUR_MS = 3_600_000;

// A chargeback (refund, return, void) withdraws the whole member's media access
// for as long as it stands, however old; no provider event brings it back, only `member enable`.
describeWithKit('chargebacks withdraw access for good', startAccountKit, (kit) => {
  /** A member with a membership and one bought VOD, signed in; returns the two provider subscription ids. */
  async function buyer(username: string) {
    await pay(kit(), { username });
    const { cookie } = await signIn(kit(), username);
    const { result } = await pay(kit(), { username, vod: VOD.path, cookie, credentials: false });
    expect(result.body.approved).toBe(true);
    const subs = await kit()
      .db.knex('members as m')
      .join('subscriptions as s', 's.member_id', 'm.id')
      .where('m.username', username)
      .select('s.kind', 's.provider_subscription_id as sid', 'm.id');
    const sid = (kind: string) => String(subs.find((s) => s.kind === kind)?.sid);
    return { cookie, memberId: String(subs[0]?.id), membership: sid('membership'), vod: sid('vod') };
  }
  const hook = (eventType: string, fields: Record<string, unknown>) => sendWebhook(kit(), eventType, fields);
  async function access(cookie: string) {
    const res = await kit().request.get('/api/me').set('Cookie', cookie);
    expect(res.status).toBe(200);
    const token = mediaTokenOf(res);
    const verified = verifySessionToken(kit().deps.settings.mediaKeys, token, kit().deps.now() / 1000);
    if (!verified.ok) throw new Error(verified.reason);
    const claims = verified.value;
    const membershipActive = claims.membershipActiveUntil !== null && claims.membershipActiveUntil * 1000 > kit().deps.now();
    return { me: res.body, vods: claims.vodPaths, membershipActive };
  }
  const vodLink = (cookie: string) =>
    kit()
      .request.get('/api/download-link')
      .query({ path: `/members/vod/${VOD.path}/x.mp4` })
      .set('Cookie', cookie);
  const enable = (username: string) =>
    runOpsCommand(['member', 'enable', username], { env: {}, knex: kit().db.knex, out: () => {}, err: () => {} });

  it('a chargeback on the membership withdraws the bought VOD too, still 49 hours later, and a renewal does not undo it', async () => {
    const b = await buyer('cb_member');
    expect(await access(b.cookie)).toMatchObject({ vods: [VOD.path], membershipActive: true });

    expect((await hook('Chargeback', { transactionId: 'cb-m-1', subscriptionId: b.membership })).body).toEqual({ status: 'stored' });
    expect(await access(b.cookie)).toMatchObject({ vods: [], membershipActive: false, me: { vods: [], membership: { active: false } } });

    // Past the revocation list's horizon (link lifetime + token lifetime): the list no longer names
    // the member, so the bff must not sign anything for them either.
    kit().setClockAhead(49 * HOUR_MS);
    expect((await kit().request.get('/internal/media-revocations')).body.members).not.toContain(b.memberId);
    expect(await access(b.cookie)).toMatchObject({ vods: [], membershipActive: false });
    expect((await vodLink(b.cookie)).status).toBe(403);

    const renewal = await hook('RenewalSuccess', {
      transactionId: 'cb-m-renew',
      subscriptionId: b.membership,
      nextRenewalDate: '2099-01-01',
    });
    expect(renewal.body).toEqual({ status: 'stored' });
    const sub = await kit().db.knex('subscriptions').where({ provider_subscription_id: b.membership }).first('status', 'paid_until');
    expect(sub.status).toBe('revoked');
    expect(Number(sub.paid_until)).toBeLessThan(Date.parse('2099-01-01'));
    expect(await access(b.cookie)).toMatchObject({ vods: [], membershipActive: false });
    for (const event of ['Cancellation', 'Expiration', 'UserReactivation'])
      await hook(event, { transactionId: `cb-m-${event}`, subscriptionId: b.membership });
    expect((await kit().db.knex('subscriptions').where({ provider_subscription_id: b.membership }).first('status')).status).toBe('revoked');

    // Buying again would charge the card and give nothing.
    const rebuy = await kit().request.post('/api/get_ccbill_token').set({ Origin: ORIGIN, Cookie: b.cookie }).send({ vod: VOD.path });
    expect(rebuy.status).toBe(403);
    kit().setClockAhead(0);
  });

  it('a chargeback on a VOD purchase withdraws the membership too (the whole member)', async () => {
    const b = await buyer('cb_vod');
    await hook('Refund', { transactionId: 'cb-v-1', subscriptionId: b.vod });
    expect(await access(b.cookie)).toMatchObject({ vods: [], membershipActive: false });
    const list = (await kit().request.get('/internal/media-revocations')).body;
    expect(list.members).toContain(b.memberId);
    // What the member was given before stays refused even after `member enable`: their valid-from time is now.
    expect(list.validFrom[b.memberId]).toBeGreaterThan(Date.now() / 1000 - 60);
  });

  it('only the operator brings a member back, and the charged-back purchase stays withdrawn', async () => {
    const b = await buyer('cb_back');
    await hook('Chargeback', { transactionId: 'cb-b-1', subscriptionId: b.vod });
    await hook('RenewalSuccess', { transactionId: 'cb-b-renew', subscriptionId: b.membership });
    expect(await access(b.cookie)).toMatchObject({ vods: [], membershipActive: false });

    expect(await enable('cb_back')).toBe(0);
    expect((await kit().request.get('/internal/media-revocations')).body.members).not.toContain(b.memberId);
    // The membership was never disputed: it comes back. The VOD's money went back: it does not.
    expect(await access(b.cookie)).toMatchObject({ vods: [], membershipActive: true });
    expect((await vodLink(b.cookie)).status).toBe(403);
    // Enabling someone neither disabled nor revoked is a mistake worth a non-zero exit.
    expect(await enable('cb_back')).not.toBe(0);
  });
});
