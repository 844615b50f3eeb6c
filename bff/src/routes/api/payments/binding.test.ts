import supertest from 'supertest';
import { expect, it } from 'vitest';
import { testCardNumber } from '@media-site/simulator/luhn';
import { ORIGIN, PROVIDER_ACCEPT, VOD, pay, prepare, signIn, startAccountKit, tokenRequestBody } from '../../../test/account-kit';
import { describeWithKit } from '../../../test/suite';

// A payment token (and a step-3 handle) is bound to the browser that ran step 1 and to
// the username it chose there. Each browser is a supertest agent: it keeps its own cookies.
describeWithKit('a payment is bound to its browser', startAccountKit, (kit) => {
  const browser = () => supertest.agent(kit().app.callback());
  type Browser = ReturnType<typeof browser>;

  async function stepOne(b: Browser, username: string) {
    const first = await b.post('/api/get_ccbill_token').set('Origin', ORIGIN).send({ username, password: 'correct horse' });
    expect(first.status).toBe(200);
    const created = await fetch(`${first.body.providerBase}/payment-tokens/merchant-only-verify`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${first.body.access_token}`, 'Content-Type': 'application/json', Accept: PROVIDER_ACCEPT },
      body: JSON.stringify(tokenRequestBody(first.body.clientAccnum, testCardNumber('1111'))),
    });
    return { first, paymentToken: ((await created.json()) as { paymentTokenId: string }).paymentTokenId };
  }
  const stepThree = (b: Browser, paymentToken: string) => b.post('/api/get_ccbill_back_token').set('Origin', ORIGIN).send({ paymentToken });
  const stepFour = (b: Browser, accessToken: string, paymentToken: string, username: string) =>
    b
      .post('/api/process_payment')
      .set('Origin', ORIGIN)
      .send({ accessToken, paymentToken, formData: { username, password: 'correct horse', email: 'ann@example.com' } });
  const chargesFor = (token: string) => kit().sim.charges.filter((c) => c.paymentTokenId === token);

  it('step 1 sets a short-lived HttpOnly, SameSite=Strict nonce cookie on /api', async () => {
    const { first } = await stepOne(browser(), 'cookie_look');
    const set = ([] as string[]).concat(first.headers['set-cookie'] ?? []).find((c) => c.startsWith('pay_start='));
    expect(set).toMatch(/^pay_start=[\w-]{43}; path=\/api; expires=[^;]+; samesite=strict; httponly$/i);
    const stored = await kit().db.knex('payment_starts').select('nonce_hash', 'username');
    expect(stored).toContainEqual({ nonce_hash: expect.stringMatching(/^[0-9a-f]{64}$/), username: 'cookie_look' });
  });

  it("another browser cannot spend the victim's payment token; the victim's browser then completes", async () => {
    const victim = browser();
    const thief = browser();
    const v = await stepOne(victim, 'victim_one');
    const vHandle = await stepThree(victim, v.paymentToken);
    expect(vHandle.status).toBe(200);

    // The thief runs steps 1 and 3 of their own, then sends the victim's payment token.
    const t = await stepOne(thief, 'thief_one');
    const tHandle = await stepThree(thief, t.paymentToken);
    expect(tHandle.status).toBe(200);
    const stolen = await stepFour(thief, tHandle.body.access_token, v.paymentToken, 'thief_one');
    expect(stolen.status).toBe(403);
    expect(stolen.body.error.message).toMatch(/another/);
    // Nor can the thief claim the victim's token at step 3.
    const claim = await stepThree(thief, v.paymentToken);
    expect(claim.status).toBe(403);
    expect(chargesFor(v.paymentToken)).toHaveLength(0);
    expect(await kit().db.knex('members').where({ username: 'thief_one' }).first()).toBeUndefined();
    expect(await kit().db.knex('payment_attempts').where({ payment_token: v.paymentToken }).first()).toBeUndefined();

    const paid = await stepFour(victim, vHandle.body.access_token, v.paymentToken, 'victim_one');
    expect(paid.status).toBe(200);
    expect(paid.body).toEqual({ approved: true, status: 'approved' });
    expect(chargesFor(v.paymentToken)).toHaveLength(1);
    expect(await kit().db.knex('members').where({ username: 'victim_one' }).first()).toBeDefined();
    expect((await victim.get('/api/me')).body.username).toBe('victim_one');
  });

  it("the victim's handle and token are refused without the step-1 cookie, or for another username", async () => {
    const victim = browser();
    const v = await stepOne(victim, 'victim_two');
    const handle = (await stepThree(victim, v.paymentToken)).body.access_token as string;
    const noCookie = await kit()
      .request.post('/api/process_payment')
      .set('Origin', ORIGIN)
      .send({
        accessToken: handle,
        paymentToken: v.paymentToken,
        formData: { username: 'victim_two', password: 'correct horse', email: 'ann@example.com' },
      });
    expect(noCookie.status).toBe(403);
    const renamed = await stepFour(victim, handle, v.paymentToken, 'someone_else');
    expect(renamed.status).toBe(403);
    expect(renamed.body.error.message).toMatch(/username/);
    expect(chargesFor(v.paymentToken)).toHaveLength(0);
    expect((await stepFour(victim, handle, v.paymentToken, 'victim_two')).body.approved).toBe(true);
  });

  it("a VOD purchase goes on only for the member who started it, in that member's browser", async () => {
    await pay(kit(), { username: 'vod_owner' });
    await pay(kit(), { username: 'vod_other' });
    const owner = (await signIn(kit(), 'vod_owner')).cookie;
    const other = (await signIn(kit(), 'vod_other')).cookie;
    const prepared = await prepare(kit(), { username: 'vod_owner', vod: VOD.path, cookie: owner, credentials: false });
    const nonce = prepared.cookie?.Cookie.split('; ').find((c) => c.startsWith('pay_start=')) ?? '';
    // The same browser, now signed in as another member: refused, nothing charged.
    const switched = await kit()
      .request.post('/api/process_payment')
      .set({ Origin: ORIGIN, Cookie: `${other}; ${nonce}` })
      .send(prepared.body);
    expect(switched.status).toBe(403);
    expect(switched.body.error.message).toMatch(/another member/);
    expect(chargesFor(prepared.paymentToken as string)).toHaveLength(0);
    const paid = await kit()
      .request.post('/api/process_payment')
      .set({ Origin: ORIGIN, Cookie: `${owner}; ${nonce}` })
      .send(prepared.body);
    expect(paid.body).toEqual({ approved: true, status: 'approved' });
  });

  it('step 3 needs the step-1 cookie', async () => {
    const { paymentToken } = await stepOne(browser(), 'no_cookie3');
    const res = await kit().request.post('/api/get_ccbill_back_token').set('Origin', ORIGIN).send({ paymentToken });
    expect(res.status).toBe(403);
  });
});
