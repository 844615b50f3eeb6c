import { PROVIDER_ACCEPT } from '@media-site/simulator';
import { testCardNumber } from '@media-site/simulator/luhn';

export interface PaymentResult {
  /** The step that ended the attempt: 1 frontend token, 2 provider payment token, 3 backend handle, 4 charge. */
  step: 1 | 2 | 3 | 4;
  status: number;
  body: Record<string, unknown>;
  ms: number;
}

async function post(
  url: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<{ status: number; body: Record<string, unknown>; cookie: string }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await res.text();
  // What a browser would send back (step 1's payment nonce, for steps 3 and 4).
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  try {
    return { status: res.status, body: JSON.parse(text) as Record<string, unknown>, cookie };
  } catch {
    return { status: res.status, body: { raw: text }, cookie };
  }
}

/** The /ccbill form's four steps over HTTP, as the SPA does them, for a new membership. */
export async function payMembership(siteUrl: string, username: string, cardEnding: string): Promise<PaymentResult> {
  const started = performance.now();
  const site = { Origin: siteUrl };
  const end = (step: PaymentResult['step'], r: { status: number; body: Record<string, unknown> }): PaymentResult => ({
    step,
    status: r.status,
    body: r.body,
    ms: performance.now() - started,
  });
  const password = 'correct horse battery';
  const first = await post(`${siteUrl}/api/get_ccbill_token`, { username, password }, site);
  if (first.status !== 200) return end(1, first);
  const browser = { ...site, Cookie: first.cookie };
  const {
    access_token: bearer,
    providerBase,
    clientAccnum,
    clientSubacc,
  } = first.body as { access_token: string; providerBase: string; clientAccnum: number; clientSubacc: number };
  const token = await post(
    `${providerBase}/payment-tokens/merchant-only-verify`,
    {
      clientAccnum,
      clientSubacc,
      subscriptionId: 0,
      customerInfo: { customerFname: 'Ann', customerLname: 'Example', email: `${username}@example.com`, zipcode: '62701', country: 'US' },
      paymentInfo: {
        creditCardPaymentInfo: {
          cardNum: testCardNumber(cardEnding),
          nameOnCard: 'Ann Example',
          expMonth: '12',
          expYear: String(new Date().getFullYear() + 1),
          cvv2: '737',
        },
      },
      timeToLive: 30,
      validNumberOfUse: 3,
    },
    { ...site, Authorization: `Bearer ${bearer}`, Accept: PROVIDER_ACCEPT },
  );
  if (token.status !== 200) return end(2, token);
  const handle = await post(`${siteUrl}/api/get_ccbill_back_token`, { paymentToken: token.body.paymentTokenId }, browser);
  if (handle.status !== 200) return end(3, handle);
  const charge = await post(
    `${siteUrl}/api/process_payment`,
    {
      accessToken: handle.body.access_token,
      paymentToken: token.body.paymentTokenId,
      formData: { username, password, email: `${username}@example.com` },
    },
    browser,
  );
  return end(4, charge);
}

/** Tells the simulator to fail the next `count` calls of one step. */
export async function failProvider(
  providerUrl: string,
  step: 'frontend-oauth' | 'backend-oauth' | 'payment-token',
  count = 1,
): Promise<void> {
  const res = await fetch(`${providerUrl}/_sim/fail`, { method: 'POST', body: JSON.stringify({ step, count }) });
  if (res.status !== 204) throw new Error(`/_sim/fail answered ${res.status}`);
}
