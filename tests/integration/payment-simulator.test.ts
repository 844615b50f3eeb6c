import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROVIDER_ACCEPT, startSimulator, type Simulator } from '@media-site/simulator';
import { testCardNumber } from '@media-site/simulator/luhn';
import { CcbillClient } from '../../bff/src/provider/client';

// The simulator must speak reference/ccbill.md's shapes, since the adapter and the SPA are built against it.
let sim: Simulator;
let client: CcbillClient;

beforeAll(async () => {
  sim = await startSimulator({ stallMs: 3000 });
  client = new CcbillClient({
    baseUrl: sim.url,
    clientAccnum: 900000,
    clientSubacc: 0,
    frontend: { appId: 'sim-frontend-app', secret: 'sim-frontend-secret-local-only' },
    backend: { appId: 'sim-backend-app', secret: 'sim-backend-secret-local-only' },
    authTimeoutMs: 2000,
    chargeTimeoutMs: 1000,
  });
});
afterAll(() => sim?.close());

function tokenBody(cardNum: string, overrides: Record<string, unknown> = {}) {
  return {
    clientAccnum: 900000,
    clientSubacc: 0,
    subscriptionId: 0,
    customerInfo: { customerFname: 'Ann', customerLname: 'Example', email: 'a@example.com', zipcode: '62701', country: 'US' },
    paymentInfo: { creditCardPaymentInfo: { cardNum, nameOnCard: 'Ann Example', expMonth: '12', expYear: '2030', cvv2: '123' } },
    timeToLive: 30,
    validNumberOfUse: 3,
    ...overrides,
  };
}

async function createToken(body: object, headers: Record<string, string> = {}) {
  const bearer = (await client.frontendBearer.token()).accessToken;
  return fetch(`${sim.url}/payment-tokens/merchant-only-verify`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${bearer}`, 'Content-Type': 'application/json', Accept: PROVIDER_ACCEPT, ...headers },
    body: JSON.stringify(body),
  });
}

const terms = {
  initialPrice: '14.99',
  initialPeriod: 30,
  recurringPrice: '14.99',
  recurringPeriod: 30,
  rebills: 99,
  currencyCode: 840,
  passThroughInfo: [],
};

describe('provider simulator', () => {
  it('issues OAuth tokens for form-encoded client credentials only; 401 without a body otherwise', async () => {
    const basic = Buffer.from('sim-backend-app:wrong').toString('base64');
    const res = await fetch(`${sim.url}/ccbill-auth/oauth/token`, {
      method: 'POST',
      headers: { Authorization: `Basic ${basic}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    expect(res.status).toBe(401);
    expect(await res.text()).toBe('');
    const bad = await fetch(`${sim.url}/ccbill-auth/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(bad.status).toBe(400);
    const token = await client.backendBearer.token();
    expect(token.accessToken.split('.')).toHaveLength(3);
    expect(await client.backendBearer.token()).toBe(token);
  });

  it('creates a payment token (32 hex, subscriptionId a string) and answers CORS preflights', async () => {
    const res = await createToken(tokenBody(testCardNumber('1111')));
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.paymentTokenId).toMatch(/^[0-9a-f]{32}$/);
    expect(typeof body.subscriptionId).toBe('string');
    expect(body).toMatchObject({ clientAccnum: 900000, clientSubacc: 0, timeToLive: 30, validNumberOfUse: 3, cvv2Response: 'M' });
    const preflight = await fetch(`${sim.url}/payment-tokens/merchant-only-verify`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://127.0.0.1:8080' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:8080');
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
  });

  it('refuses bad requests with the provider error body', async () => {
    const invalid = await createToken(tokenBody('4111111111111112'));
    expect(invalid.status).toBe(400);
    const error = (await invalid.json()) as Record<string, unknown>;
    expect(error).toMatchObject({ errorCode: 200000, generalMessage: 'Validation failed!' });
    expect(error.errors).toEqual([expect.objectContaining({ field: 'paymentInfo.creditCardPaymentInfo.cardNum' })]);
    expect(Object.keys(error).sort()).toEqual(['errorCode', 'errors', 'generalMessage', 'id', 'timestamp', 'url']);
    const accents = await createToken(
      tokenBody(testCardNumber('1111'), {
        customerInfo: { customerFname: 'Zoë', customerLname: 'X', email: 'a@b.co', zipcode: '1', country: 'US' },
      }),
    );
    expect(((await accents.json()) as { errors: { message: string }[] }).errors[0]?.message).toBe('Unsupported characters');
    expect((await createToken(tokenBody(testCardNumber('1111')), { 'Content-Type': 'text/plain' })).status).toBe(415);
    const backendBearer = (await client.backendBearer.token()).accessToken;
    expect((await createToken(tokenBody(testCardNumber('1111')), { Authorization: `Bearer ${backendBearer}` })).status).toBe(403);
  });

  it('decides the charge from the card: approve, decline as HTTP 200, 500, stall, unknown token', async () => {
    const tokenFor = async (ending: string) =>
      ((await (await createToken(tokenBody(testCardNumber(ending)))).json()) as { paymentTokenId: string }).paymentTokenId;
    const approved = await client.charge(await tokenFor('1111'), terms);
    expect(approved.kind).toBe('approved');
    if (approved.kind === 'approved') expect(approved.subscriptionId).toMatch(/^\d{18}$/);
    expect(await client.charge(await tokenFor('0000'), terms)).toMatchObject({ kind: 'declined', declineCode: '27' });
    expect(await client.charge(await tokenFor('0005'), terms)).toMatchObject({ kind: 'unknown' });
    expect(await client.charge(await tokenFor('0002'), terms)).toMatchObject({ kind: 'unknown', reason: expect.stringMatching(/in time/) });
    expect(await client.charge('f'.repeat(32), terms)).toMatchObject({ kind: 'rejected', status: 404, errorCode: '100101' });
  });
});
