import { describe, expect, it, vi } from 'vitest';
import { runPaymentChain } from './chain';
import { json } from '../../test/render';
import { form, provider, TOKEN_URL } from '../../test/payment-provider';

async function run() {
  const statuses: string[] = [];
  const approved = await runPaymentChain(form, { onStatus: (status) => statuses.push(status) });
  return { approved, statuses };
}

describe('runPaymentChain', () => {
  it('makes the four calls in order and reports success', async () => {
    const fetchMock = provider();
    expect(await run()).toEqual({ approved: true, statuses: ['Processing...', 'Transaction successful!'] });
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toEqual([
      '/api/get_ccbill_token',
      TOKEN_URL,
      '/api/get_ccbill_back_token',
      '/api/process_payment',
    ]);

    const [, tokenInit] = fetchMock.mock.calls[1] ?? [];
    expect((tokenInit?.headers as Record<string, string>).Authorization).toBe('Bearer front-token');
    const tokenBody = JSON.parse(String(tokenInit?.body));
    expect(tokenBody.paymentInfo.creditCardPaymentInfo).toMatchObject({
      cardNum: '4111111111111111',
      expMonth: '12',
      expYear: '2027',
      cvv2: '123',
    });
    expect(tokenBody).toMatchObject({ timeToLive: 30, validNumberOfUse: 3, customerInfo: { zipcode: '62701', country: 'US' } });

    // Step 3 names the payment token its handle is bound to (with step 1's cookie, sent by the browser).
    expect(JSON.parse(String(fetchMock.mock.calls[2]?.[1]?.body))).toEqual({ paymentToken: 'a'.repeat(32) });
    const processBody = JSON.parse(String(fetchMock.mock.calls[3]?.[1]?.body));
    expect(processBody).toMatchObject({ accessToken: 'back-token', paymentToken: 'a'.repeat(32) });
    expect(processBody.formData).toMatchObject({ currencyCode: '840', rebills: '99', username: 'new_member1' });
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({ username: 'new_member1', password: 'correct horse' });
  });

  it.each([
    ['/api/get_ccbill_token', 'Failed to obtain access token.', 1],
    [TOKEN_URL, 'Failed to create payment token.', 2],
    ['/api/get_ccbill_back_token', 'Failed to obtain second access token.', 3],
    ['/api/process_payment', 'Transaction failed.', 4],
  ])('stops when %s fails', async (url, message, calls) => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const fetchMock = provider({ [url]: () => json({ error: { code: 'x', message: 'no' } }, 500) });
    expect(await run()).toEqual({ approved: false, statuses: ['Processing...', message] });
    expect(fetchMock).toHaveBeenCalledTimes(calls);
  });

  it('reads a declined charge (200, approved false) as Transaction failed.', async () => {
    provider({ '/api/process_payment': () => json({ approved: false, declineCode: 27 }) });
    expect((await run()).statuses.at(-1)).toBe('Transaction failed.');
  });

  it('reads a missing token as a failed step', async () => {
    provider({ '/api/get_ccbill_token': () => json({}) });
    expect((await run()).statuses.at(-1)).toBe('Failed to obtain access token.');
  });
});
