import { createServer, request, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBackends } from '@media-site/db/testing';
import { randomBytes } from 'node:crypto';
import { pay, startAccountKit, type AccountKit } from '../../../test/account-kit';
import { WEBHOOK_PROXY_HEADER } from './proxy-secret';

// The compose shape: the bff trusts the front door's one address. Here the front door is 127.0.0.1
// and the forger another host on the same network, 127.0.0.2 (all of 127/8 is this machine), that
// claims a provider address in X-Forwarded-For. The old compose default trusted whole private
// ranges; its loopback analogue, 127.0.0.0/8, shows what that let through.
const PROXY = '127.0.0.1';
const FORGER = '127.0.0.2';
const PROVIDER_ADDRESS = '64.38.240.17';
const DAY_MS = 86_400_000;

interface Setup {
  kit: AccountKit;
  server: Server;
  /** A paid membership's provider subscription id. */
  subscriptionId: string;
  /** An attempt whose charge never went through (the provider stalled: status unknown). */
  attemptId: number;
}

async function setUp(
  backend: Parameters<typeof startAccountKit>[0],
  trustedProxies: string,
  env: Record<string, string> = {},
): Promise<Setup> {
  const kit = await startAccountKit(backend, { TRUSTED_PROXIES: trustedProxies, ...env });
  await pay(kit, { username: 'paid_member' });
  const paid = await kit.db.knex('payment_attempts').where({ username: 'paid_member' }).first();
  const { result } = await pay(kit, { username: 'never_charged', cardEnding: '0002' });
  expect(result.body.status).toBe('unknown');
  const stalled = await kit.db.knex('payment_attempts').where({ username: 'never_charged' }).first();
  const server = createServer(kit.app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { kit, server, subscriptionId: paid.provider_subscription_id, attemptId: Number(stalled.id) };
}

function post(
  setup: Setup,
  from: string,
  eventType: string,
  fields: object,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  const { port } = setup.server.address() as { port: number };
  const body = JSON.stringify({ clientAccnum: 900000, clientSubacc: 0, transactionId: `${eventType}-${from}`, ...fields });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        localAddress: from,
        method: 'POST',
        path: `/api/ccbill/webhook?clientAccnum=900000&clientSubacc=0&eventGroupType=Subscription&eventType=${eventType}`,
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': PROVIDER_ADDRESS, ...headers },
        agent: false,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const forgeUpSale = (s: Setup) =>
  post(s, FORGER, 'UpSaleSuccess', { 'X-attempt': String(s.attemptId), subscriptionId: '900000000000000099', username: 'never_charged' });
const forgeRenewal = (s: Setup) => post(s, FORGER, 'RenewalSuccess', { subscriptionId: s.subscriptionId, nextRenewalDate: '2099-01-01' });

async function state(s: Setup) {
  const knex = s.kit.db.knex;
  const attempt = await knex('payment_attempts').where({ id: s.attemptId }).first();
  const subscription = await knex('subscriptions').where({ provider_subscription_id: s.subscriptionId }).first();
  return {
    attemptStatus: attempt.status as string,
    neverChargedMember: (await knex('members').where({ username: 'never_charged' }).first()) !== undefined,
    paidUntil: Number(subscription.paid_until),
    events: Number((await knex('webhook_events').count({ n: '*' }).first())?.n),
  };
}

describe.each(testBackends())('a forged provider webhook from a private-range peer (%s)', (backend) => {
  describe('with the bff trusting exactly the front door', () => {
    let setup: Setup;
    beforeAll(async () => {
      setup = await setUp(backend, PROXY);
    });
    afterAll(async () => {
      await new Promise((resolve) => setup?.server.close(resolve));
      await setup?.kit.close();
    });

    it('is refused and changes nothing: no member for an uncharged attempt, no renewal', async () => {
      const before = await state(setup);
      expect(before).toMatchObject({ attemptStatus: 'unknown', neverChargedMember: false, events: 0 });
      for (const forged of [await forgeUpSale(setup), await forgeRenewal(setup)]) {
        expect(forged.status).toBe(403);
        expect(JSON.parse(forged.body)).toEqual({ error: { code: 'forbidden', message: 'source address not allowed' } });
      }
      expect(await state(setup)).toEqual(before);
    });

    it('still takes the provider address from the front door itself', async () => {
      const relayed = await post(setup, PROXY, 'CustomerDataUpdate', { subscriptionId: setup.subscriptionId });
      expect(relayed.status).toBe(200);
      expect((await state(setup)).events).toBe(1);
    });
  });

  // Any process on nginx's own host (or in its network namespace) connects from the trusted address:
  // X-Forwarded-For alone would let it post provider events. Only nginx's webhook location adds the secret.
  describe('with WEBHOOK_PROXY_SECRET (production: nginx vouches for the allow-list check)', () => {
    const secret = randomBytes(32).toString('hex');
    let setup: Setup;
    beforeAll(async () => {
      setup = await setUp(backend, PROXY, { WEBHOOK_PROXY_SECRET: secret });
    });
    afterAll(async () => {
      await new Promise((resolve) => setup?.server.close(resolve));
      await setup?.kit.close();
    });

    it("refuses a post from the front door's own address that lacks the secret or carries another, and stores nothing", async () => {
      const before = await state(setup);
      const fields = { 'X-attempt': String(setup.attemptId), subscriptionId: '900000000000000099', username: 'never_charged' };
      const attempts: Record<string, string>[] = [
        {},
        { [WEBHOOK_PROXY_HEADER]: '' },
        { [WEBHOOK_PROXY_HEADER]: randomBytes(32).toString('hex') },
        { [WEBHOOK_PROXY_HEADER]: secret.slice(0, -1) },
      ];
      for (const headers of attempts) {
        const forged = await post(setup, PROXY, 'UpSaleSuccess', fields, headers);
        expect(forged.status).toBe(403);
        expect(JSON.parse(forged.body)).toEqual({
          error: { code: 'forbidden', message: 'webhooks are accepted through the front door only' },
        });
      }
      expect(await state(setup)).toEqual(before);
    });

    it('stores what nginx relays with the secret, and still refuses the secret from an address off the allow-list', async () => {
      const withSecret = (from: string, eventType: string) =>
        post(setup, from, eventType, { subscriptionId: setup.subscriptionId }, { [WEBHOOK_PROXY_HEADER]: secret });
      const relayed = await withSecret(PROXY, 'CustomerDataUpdate');
      expect(relayed.status).toBe(200);
      expect(JSON.parse(relayed.body)).toEqual({ status: 'stored' });
      expect((await state(setup)).events).toBe(1);
      const wrongSource = await withSecret(FORGER, 'RenewalSuccess');
      expect(wrongSource.status).toBe(403);
    });
  });

  describe('with the old compose-style trust list (a whole private range)', () => {
    let setup: Setup;
    beforeAll(async () => {
      setup = await setUp(backend, '127.0.0.0/8');
    });
    afterAll(async () => {
      await new Promise((resolve) => setup?.server.close(resolve));
      await setup?.kit.close();
    });

    it('let the forger create a member without a charge and renew to 2099 (why production now refuses such lists)', async () => {
      const before = await state(setup);
      expect((await forgeUpSale(setup)).status).toBe(200);
      expect((await forgeRenewal(setup)).status).toBe(200);
      const after = await state(setup);
      expect(after).toMatchObject({ attemptStatus: 'approved', neverChargedMember: true });
      expect(after.paidUntil).toBeGreaterThan(before.paidUntil + 365 * DAY_MS);
    });
  });
});
