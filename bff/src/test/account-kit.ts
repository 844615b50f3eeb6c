import type { Knex } from 'knex';
import type supertest from 'supertest';
import { searchText } from '@media-site/db';
import { createTestDb, type Backend, type TestDb } from '@media-site/db/testing';
import { startSimulator, type Simulator, type SimulatorOptions } from '@media-site/simulator';
import { testCardNumber } from '@media-site/simulator/luhn';
import { membershipFormData } from '@media-site/simulator/testing';
import type { createApp } from '../app';
import { loadConfig } from '../config';
import type { RateLimiter } from '../security/rate-limit';
import type { AccountDeps } from '../account/deps';
import { cookieHeader, setCookies } from './cookies';
import { ORIGIN, startAccountApp } from './account-app';

export { ORIGIN };
export const PROVIDER_ACCEPT = 'application/vnd.mcn.transaction-service.api.v.2+json';
export const VOD = { path: 'vod-one', price: '24.50' };

export interface AccountKit {
  db: TestDb;
  sim: Simulator;
  deps: AccountDeps;
  /** For tests that need a real socket (a chosen client address). */
  app: ReturnType<typeof createApp>;
  request: ReturnType<typeof supertest>;
  /** Sets the clock the routes see to `ms` ahead of the real one (0: back to real time). */
  setClockAhead(ms: number): void;
  close(): Promise<void>;
}

export async function insertVod(knex: Knex, vod: { path: string; price: string } = VOD): Promise<void> {
  await knex('vods').insert({
    path: vod.path,
    updatename: 'VOD one',
    modelname: 'Model A1',
    datetoupload: '2024-03-01',
    search_text: searchText('VOD one', 'Model A1'),
    prename: 'vod one',
    format: 0,
    price: vod.price,
  });
}

/** A released video whose folder and file need encoding in a URL: a download link is signed only for an item that exists. */
export const VIDEO = { path: 'some set', file: 'clip 001.mp4' };

/** Adds VIDEO to the catalog; its original, as /api/videos/prename names it, is `/members/video/{path}/{file}`. */
export async function insertVideo(knex: Knex): Promise<void> {
  await knex('videos').insert({
    path: VIDEO.path,
    updatename: 'Some set',
    modelname: 'Model A1',
    datetoupload: '2024-03-01',
    search_text: searchText('Some set', 'Model A1'),
    prename: VIDEO.file,
  });
}

/** The bff over a fresh database, talking to a provider simulator of its own. */
/** `limiter`: another rate limiter than the in-process one (a Redis one, for example). */
export async function startAccountKit(
  backend: Backend,
  env: Record<string, string> = {},
  sim: SimulatorOptions = {},
  options: { limiter?: RateLimiter } = {},
): Promise<AccountKit> {
  const db = await createTestDb(backend);
  await insertVod(db.knex);
  const simulator = await startSimulator({ stallMs: 4000, ...sim });
  const config = loadConfig({
    ALLOWED_ORIGINS: ORIGIN,
    CCBILL_BASE_URL: simulator.url,
    CCBILL_CHARGE_TIMEOUT_MS: '1500',
    RATE_LIMIT_LOGIN_PER_MINUTE: '1000',
    RATE_LIMIT_LOGIN_PER_ACCOUNT: '1000',
    RATE_LIMIT_PAYMENT_PER_MINUTE: '1000',
    ...env,
  });
  let ahead = 0;
  const started = await startAccountApp(db, config, { now: () => Date.now() + ahead, ...options });
  return {
    db,
    sim: simulator,
    deps: started.deps,
    app: started.app,
    request: started.request,
    setClockAhead: (ms) => {
      ahead = ms;
    },
    async close() {
      await simulator.close();
      await started.close();
    },
  };
}

export interface PaymentInput {
  username: string;
  password?: string;
  /** Last four digits of the test card: 0000 declined, 0002 stalls, 0005 provider error. */
  cardEnding?: string;
  vod?: string;
  cookie?: string;
  formExtras?: Record<string, unknown>;
  /** false: send no username or password (a signed-in member buying a VOD, as the SPA does). */
  credentials?: boolean;
}

export function tokenRequestBody(clientAccnum: number, cardNum: string) {
  return {
    clientAccnum,
    clientSubacc: 0,
    subscriptionId: 0,
    customerInfo: {
      customerFname: 'Ann',
      customerLname: 'Example',
      email: 'ann@example.com',
      zipcode: '62701',
      country: 'US',
      address1: '1 Main St',
      city: 'Springfield',
      state: 'IL',
    },
    paymentInfo: {
      creditCardPaymentInfo: {
        cardNum,
        nameOnCard: 'Ann Example',
        expMonth: '12',
        expYear: String(new Date().getFullYear() + 2),
        cvv2: '123',
      },
    },
    timeToLive: 30,
    validNumberOfUse: 3,
  };
}

/** The Cookie header after a response's Set-Cookie: the browser's cookies plus (or replaced by) the new ones. */
export function withSetCookies(cookie: string | undefined, res: { headers: Record<string, unknown> }): string {
  const jar = new Map(
    (cookie ?? '')
      .split(/;\s*/)
      .filter(Boolean)
      .map((c) => [c.split('=')[0] ?? '', c] as const),
  );
  for (const set of setCookies(res)) {
    const pair = set.split(';')[0] ?? '';
    jar.set(pair.split('=')[0] ?? '', pair);
  }
  return [...jar.values()].join('; ');
}

/** Steps 1-3 as the browser runs them; returns what step 4 needs (`cookie`: the browser's, with step 1's nonce). */
export async function prepare(kit: AccountKit, input: PaymentInput) {
  const sent = input.cookie ? { Cookie: input.cookie } : {};
  const credentials = input.credentials === false ? {} : { username: input.username, password: input.password ?? 'correct horse' };
  const first = await kit.request
    .post('/api/get_ccbill_token')
    .set({ Origin: ORIGIN, ...sent })
    .send({ ...credentials, ...(input.vod ? { vod: input.vod } : {}) });
  if (first.status !== 200) return { first };
  const cookie = { Cookie: withSetCookies(input.cookie, first) };
  const created = await fetch(`${first.body.providerBase}/payment-tokens/merchant-only-verify`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${first.body.access_token}`, 'Content-Type': 'application/json', Accept: PROVIDER_ACCEPT },
    body: JSON.stringify(tokenRequestBody(first.body.clientAccnum, testCardNumber(input.cardEnding ?? '1111'))),
  });
  const paymentToken = ((await created.json()) as { paymentTokenId: string }).paymentTokenId;
  const second = await kit.request
    .post('/api/get_ccbill_back_token')
    .set({ Origin: ORIGIN, ...cookie })
    .send({ paymentToken });
  const body = {
    accessToken: second.body.access_token as string,
    paymentToken,
    ...(input.vod ? { vod: input.vod } : {}),
    formData: membershipFormData({ ...credentials, email: 'ann@example.com', ...input.formExtras }),
  };
  return { first, second, paymentToken, body, cookie };
}

export async function pay(kit: AccountKit, input: PaymentInput) {
  const prepared = await prepare(kit, input);
  if (!prepared.body) throw new Error(`step 1 failed: ${prepared.first.status} ${JSON.stringify(prepared.first.body)}`);
  const result = await kit.request
    .post('/api/process_payment')
    .set({ Origin: ORIGIN, ...prepared.cookie })
    .send(prepared.body);
  return { ...prepared, result };
}

/** The provider's subscription webhook (the event type is appended) and an address inside its published ranges. */
export const SUBSCRIPTION_HOOK = '/api/ccbill/webhook?clientAccnum=900000&clientSubacc=0&eventGroupType=Subscription&eventType=';
export const PROVIDER_ADDRESS = '64.38.240.17';

/** A subscription event as the provider posts it, from its address unless `from` says otherwise. */
export function sendWebhook(kit: AccountKit, eventType: string, fields: object, from = PROVIDER_ADDRESS) {
  return kit.request
    .post(`${SUBSCRIPTION_HOOK}${eventType}`)
    .set('X-Forwarded-For', from)
    .send({ clientAccnum: 900000, clientSubacc: 0, ...fields });
}

/** The provider's subscription id of a username's payment. */
export async function subscriptionIdOf(kit: AccountKit, username: string): Promise<string> {
  return (await kit.db.knex('payment_attempts').where({ username }).first()).provider_subscription_id;
}

/** Signs in; returns the Cookie header value for both cookies. */
export async function signIn(kit: AccountKit, username: string, password = 'correct horse') {
  const res = await kit.request.post('/api/login').set('Origin', ORIGIN).send({ username, password });
  const cookies = setCookies(res);
  return { res, cookie: cookieHeader(cookies), cookies };
}
