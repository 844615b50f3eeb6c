import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOpsCaptured } from '@media-site/ops/cli';
import { offerTerms } from '@media-site/contracts/membership-offer';
import { totpCode } from '@media-site/db/admin';
import { testBackends } from '@media-site/db/testing';
import { PRICE_CHANGES_PER_HOUR } from './prices';
import { ORIGIN, startAccountKit, type AccountKit } from '../../../test/account-kit';
import { cookieHeader, setCookies } from '../../../test/cookies';

const MINUTE = 60_000;
const TRIAL = { price: '14.99', periodDays: 30, trial: { price: '1.95', days: 2 } };

// The console's Prices screen: the owner sets what new members are charged (a trial too), support
// reads it, nobody else; every bad value is a 400 naming its field; each change audited.
describe.each(testBackends())('console prices (%s)', (backend) => {
  let kit: AccountKit;
  const cookies = new Map<string, string>();
  let clock = 0;
  /** The owner's changes so far, refused ones too: each counts against the hourly budget. */
  let ownerChanges = 0;

  const ops = (...argv: string[]) => runOpsCaptured(argv, { env: { USER: 'tester' }, knex: kit.db.knex, now: () => kit.deps.now() });
  const put = (who: string, body: unknown) => {
    if (who === 'boss') ownerChanges += 1;
    return kit.request
      .put('/api/admin/prices')
      .set('Origin', ORIGIN)
      .set('Cookie', cookies.get(who) ?? '')
      .send(body as object);
  };
  const get = (who: string) =>
    kit.request
      .get('/api/admin/prices')
      .set('Sec-Fetch-Site', 'same-origin')
      .set('Cookie', cookies.get(who) ?? '');
  const audit = async () =>
    (await kit.db
      .knex('admin_audit')
      .where({ action: 'prices.set' })
      .orderBy('id')
      .select('actor', 'target', 'before_json', 'after_json')) as Record<string, string>[];

  /** Signed in; `confirm`: then confirmed with a fresh code (a price change needs it, as admin changes do). */
  async function admin(name: string, role: string, confirm = false) {
    const added = await ops('admin', 'add', name, '--role', role);
    expect(added.code, added.err).toBe(0);
    const secret = /secret: (\S+)/.exec(added.out)?.[1] ?? '';
    kit.setClockAhead((clock += MINUTE));
    const res = await kit.request
      .post('/api/admin/signin/totp')
      .set('Origin', ORIGIN)
      .send({ name, code: totpCode(secret, kit.deps.now()) });
    expect(res.status).toBe(200);
    cookies.set(name, cookieHeader(setCookies(res).filter((c) => c.startsWith('admin_sid='))));
    if (!confirm) return;
    kit.setClockAhead((clock += MINUTE));
    const confirmed = await kit.request
      .post('/api/admin/confirm/totp')
      .set('Origin', ORIGIN)
      .set('Cookie', cookies.get(name)!)
      .send({ code: totpCode(secret, kit.deps.now()) });
    expect(confirmed.status).toBe(200);
  }

  beforeAll(async () => {
    kit = await startAccountKit(backend, {
      RATE_LIMIT_ADMIN_SIGNIN_PER_MINUTE: '1000',
      ADMIN_CONFIRM_MINUTES: '30',
      MEMBERSHIP_PRICE: '14.99',
      MEMBERSHIP_PERIOD_DAYS: '30',
    });
    await admin('mod_one', 'moderator');
    await admin('help_one', 'support');
    await admin('unconfirmed_owner', 'owner');
    // Last, so its confirmation (ADMIN_CONFIRM_MINUTES, 30 here) outlasts the minutes the tests move the clock.
    await admin('boss', 'owner', true);
  });

  it("an owner's session that has not confirmed it is them (a fresh code or passkey) changes nothing", async () => {
    const res = await kit.request
      .put('/api/admin/prices')
      .set('Origin', ORIGIN)
      .set('Cookie', cookies.get('unconfirmed_owner')!)
      .send(TRIAL);
    expect([res.status, res.body.error?.code]).toEqual([403, 'confirm_required']);
    expect(await audit()).toEqual([]);
  });
  afterAll(() => kit?.close());

  it('answers the configured defaults until the owner sets prices', async () => {
    const res = await get('boss');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({
      offer: { price: '14.99', periodDays: 30, trial: null },
      setBy: null,
      setAt: null,
      defaults: { price: '14.99', periodDays: 30 },
      renews: true,
      terms: '$14.99 today, then $14.99 every 30 days until you cancel.',
    });
  });

  it('support reads but may not change; a moderator may not read; no session is 401; a cross-origin change is 403', async () => {
    expect((await get('help_one')).status).toBe(200);
    const refused = await put('help_one', TRIAL);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe('the support role may not change prices');
    const moderator = await get('mod_one');
    expect(moderator.status).toBe(403);
    expect(moderator.body.error.message).toMatch(/moderator role may not/);
    expect((await put('mod_one', TRIAL)).status).toBe(403);
    expect((await kit.request.get('/api/admin/prices').set('Sec-Fetch-Site', 'same-origin')).status).toBe(401);
    expect((await kit.request.put('/api/admin/prices').set('Origin', ORIGIN).send(TRIAL)).status).toBe(401);
    const cross = await kit.request
      .put('/api/admin/prices')
      .set('Origin', 'https://evil.example')
      .set('Cookie', cookies.get('boss')!)
      .send(TRIAL);
    expect(cross.status).toBe(403);
    expect(await audit()).toEqual([]);
  });

  it.each([
    [{ ...TRIAL, price: '14.9' }, 'price: an amount like 14.99'],
    [{ ...TRIAL, price: '0.00', trial: null }, 'price: from 0.01 to 999.99'],
    [{ ...TRIAL, price: '1000.00' }, 'price: an amount like 14.99'],
    [{ ...TRIAL, price: '12345678901' }, 'price: an amount like 14.99'],
    [{ ...TRIAL, price: 14.99 }, 'price: an amount like 14.99'],
    [{ ...TRIAL, periodDays: 0 }, 'periodDays: a whole number of days from 1 to 365'],
    [{ ...TRIAL, periodDays: 366 }, 'periodDays: a whole number of days from 1 to 365'],
    [{ ...TRIAL, periodDays: 1.5 }, 'periodDays: a whole number of days from 1 to 365'],
    [{ ...TRIAL, periodDays: '30' }, 'periodDays: a whole number of days'],
    [{ ...TRIAL, trial: { price: '14.99', days: 2 } }, 'trial.price: a trial must cost less than a full period'],
    [{ ...TRIAL, trial: { price: '20.00', days: 2 } }, 'trial.price: a trial must cost less than a full period'],
    [{ ...TRIAL, trial: { price: '1.95', days: 0 } }, 'trial.days: a whole number of days from 1 to 90'],
    [{ ...TRIAL, trial: { price: '1.95', days: 91 } }, 'trial.days: a whole number of days from 1 to 90'],
    [{ ...TRIAL, trial: { price: '1.95' } }, 'trial.days: a whole number of days'],
    [{ price: '14.99', periodDays: 30 }, 'trial: a trial ({ price, days }) or null'],
    [{ ...TRIAL, currency: 'EUR' }, 'body: Unrecognized key: "currency"'],
    [{ ...TRIAL, trial: { ...TRIAL.trial, rebills: 3 } }, 'trial: Unrecognized key: "rebills"'],
  ])('refuses %j with a 400 naming the field', async (body, message) => {
    const res = await put('boss', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ code: 'bad_request', message });
    expect(await audit()).toEqual([]);
  });

  it('the owner sets a trial and reads it back; new sign-ups are offered it; the change is audited with before and after', async () => {
    kit.setClockAhead((clock += MINUTE));
    const before = kit.deps.now();
    const set = await put('boss', { ...TRIAL, price: '19.90' });
    expect(set.status).toBe(200);
    const offer = { price: '19.90', periodDays: 30, trial: { price: '1.95', days: 2 } };
    const expected = {
      offer,
      setBy: 'boss',
      setAt: set.body.setAt as number,
      defaults: { price: '14.99', periodDays: 30 },
      renews: true,
      // The join page's wording (contracts/src/membership-offer.ts has its own tests).
      terms: offerTerms(offer),
    };
    expect(set.body).toEqual(expected);
    expect(expected.setAt).toBeGreaterThanOrEqual(before);
    expect((await get('boss')).body).toEqual(expected);
    expect((await get('help_one')).body).toEqual(expected);
    expect((await kit.request.get('/api/payment-config')).body.offer).toEqual({ id: expect.any(Number), ...expected.offer, renews: true });

    const rows = await audit();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actor: 'boss', target: 'membership' });
    expect(JSON.parse(rows[0]!.before_json!)).toEqual({ price: '14.99', periodDays: 30, trial: null });
    expect(JSON.parse(rows[0]!.after_json!)).toEqual(expected.offer);
  });

  it('a second change with trial null removes the trial', async () => {
    kit.setClockAhead((clock += MINUTE));
    const res = await put('boss', { price: '19.90', periodDays: 31, trial: null });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ offer: { price: '19.90', periodDays: 31, trial: null }, setBy: 'boss' });
    expect(res.body.terms).toBe('$19.90 today, then $19.90 every 31 days until you cancel.');
    expect((await get('boss')).body.offer).toEqual({ price: '19.90', periodDays: 31, trial: null });
    const rows = await audit();
    expect(rows).toHaveLength(2);
    expect(JSON.parse(rows[1]!.before_json!)).toEqual({ price: '19.90', periodDays: 30, trial: { price: '1.95', days: 2 } });
    expect(JSON.parse(rows[1]!.after_json!)).toEqual({ price: '19.90', periodDays: 31, trial: null });
  });

  it('the default VOD price: support reads it, the owner sets and clears it (audited), a bad amount is a 400 naming it', async () => {
    const putVod = (who: string, body: unknown) => {
      if (who === 'boss') ownerChanges += 1;
      return kit.request
        .put('/api/admin/prices/vod')
        .set('Origin', ORIGIN)
        .set('Cookie', cookies.get(who) ?? '')
        .send(body as object);
    };
    const getVod = (who: string) =>
      kit.request
        .get('/api/admin/prices/vod')
        .set('Sec-Fetch-Site', 'same-origin')
        .set('Cookie', cookies.get(who) ?? '');
    expect((await getVod('help_one')).body).toEqual({ price: null, setBy: null, setAt: null });
    expect((await getVod('mod_one')).status).toBe(403);
    expect((await putVod('help_one', { price: '7.50' })).status).toBe(403);
    expect((await putVod('unconfirmed_owner', { price: '7.50' })).body.error.code).toBe('confirm_required');
    for (const [body, message] of [
      [{ price: '7.5' }, 'price: an amount like 14.99'],
      [{ price: '0.00' }, 'price: from 0.01 to 999.99'],
      [{ price: 7.5 }, 'price: an amount like 14.99'],
      [{}, 'price: an amount like 14.99'],
      [{ price: '7.50', extra: 1 }, 'Unrecognized key: "extra"'],
    ] as const) {
      const res = await putVod('boss', body);
      expect({ status: res.status, message: res.body.error?.message }).toEqual({ status: 400, message: expect.stringContaining(message) });
    }
    const set = await putVod('boss', { price: '7.50' });
    expect(set.body).toEqual({ price: '7.50', setBy: 'boss', setAt: expect.any(Number) });
    expect((await getVod('help_one')).body).toEqual(set.body);
    const cleared = await putVod('boss', { price: null });
    expect(cleared.body.price).toBeNull();
    const rows = (await kit.db
      .knex('admin_audit')
      .where({ action: 'prices.vod' })
      .orderBy('id')
      .select('actor', 'target', 'before_json', 'after_json')) as Record<string, string>[];
    expect(rows.map((r) => [r.actor, r.target, JSON.parse(r.before_json!), JSON.parse(r.after_json!)])).toEqual([
      ['boss', 'vod', { price: null }, { price: '7.50' }],
      ['boss', 'vod', { price: '7.50' }, { price: null }],
    ]);
  });

  it(`stops an admin after ${PRICE_CHANGES_PER_HOUR} changes an hour`, async () => {
    while (ownerChanges < PRICE_CHANGES_PER_HOUR) expect((await put('boss', { ...TRIAL, price: '14.9' })).status).toBe(400);
    const res = await put('boss', { price: '19.90', periodDays: 31, trial: null });
    expect(res.status).toBe(429);
    expect(await audit()).toHaveLength(2);
  });
});
