import { afterEach, describe, expect, it, vi } from 'vitest';
import { OFFER_CHANGED } from '@media-site/contracts/membership-offer';
import { OFFER_CHANGED_MESSAGE, OWNED_MESSAGE, TAKEN_MESSAGE, runPaymentChain } from './chain';
import { json } from '../../test/render';
import { form, provider } from '../../test/payment-provider';

const conflict = () => json({ error: { code: 'conflict', message: 'this username is taken' } }, 409);

async function run() {
  const statuses: string[] = [];
  const fields: [string, string][] = [];
  const approved = await runPaymentChain(form, { onStatus: (s) => statuses.push(s), onFieldError: (f, m) => fields.push([f, m]) });
  return { approved, statuses: statuses.filter(Boolean), fields };
}

afterEach(() => window.history.replaceState({}, '', '/'));

describe('refusals that belong to a field, not a step', () => {
  it('shows a 409 at step 1 on the username field, not "Failed to obtain access token."', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const fetchMock = provider({ '/api/get_ccbill_token': conflict });
    expect(await run()).toEqual({ approved: false, statuses: ['Processing...'], fields: [['username', TAKEN_MESSAGE]] });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('shows a 409 at step 4 (taken meanwhile) on the field too', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    provider({ '/api/process_payment': conflict });
    expect((await run()).fields).toEqual([['username', TAKEN_MESSAGE]]);
  });

  it('sends the terms the page showed, and says so when they changed meanwhile (nothing charged)', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const fetchMock = provider({ '/api/process_payment': () => json({ error: { code: 'conflict', message: OFFER_CHANGED } }, 409) });
    const statuses: string[] = [];
    const fields: unknown[] = [];
    const onOfferChanged = vi.fn();
    const approved = await runPaymentChain(form, {
      onStatus: (s) => statuses.push(s),
      onFieldError: (f, m) => fields.push([f, m]),
      offerId: 7,
      onOfferChanged,
    });
    expect({ approved, statuses: statuses.filter(Boolean), fields }).toEqual({
      approved: false,
      statuses: ['Processing...', OFFER_CHANGED_MESSAGE],
      fields: [],
    });
    expect(onOfferChanged).toHaveBeenCalledTimes(1);
    const step4 = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/api/process_payment'));
    expect(JSON.parse(String((step4?.[1] as RequestInit).body)).offerId).toBe(7);
  });

  it('says a VOD is already owned when step 1 answers 409 for it', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    window.history.replaceState({}, '', '/ccbill?vod=vod-1');
    provider({ '/api/get_ccbill_token': conflict });
    expect(await run()).toEqual({ approved: false, statuses: ['Processing...', OWNED_MESSAGE], fields: [] });
  });
});
