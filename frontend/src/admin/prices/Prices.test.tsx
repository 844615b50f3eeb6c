import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { offerTerms } from '@media-site/contracts/membership-offer';
import { json, stubFetch } from '../../test/render';
import type { PricesAnswer } from '../shared/api';
import { Prices } from './Prices';

const DEFAULTS: PricesAnswer = {
  offer: { price: '14.99', periodDays: 30, trial: null },
  setBy: null,
  setAt: null,
  defaults: { price: '14.99', periodDays: 30 },
  renews: true,
  terms: '$14.99 today, then $14.99 every 30 days until you cancel.',
};
const SET_AT = Date.UTC(2026, 2, 4, 9, 30);

/** GET answers `read`; PUT answers `put` (or echoes the body as set by boss). */
function serve(read: PricesAnswer, put?: () => Response) {
  return stubFetch((url, init) => {
    if (url === '/api/admin/prices/vod') {
      if (init?.method !== 'PUT') return json({ price: '6.50', setBy: 'ann', setAt: SET_AT });
      const { price } = JSON.parse(String(init.body)) as { price: string | null };
      return json({ price, setBy: 'ann', setAt: SET_AT });
    }
    if (url !== '/api/admin/prices') return json({ error: { code: 'not_found', message: 'not in this test' } }, 404);
    if (init?.method !== 'PUT') return json(read);
    if (put) return put();
    const offer = JSON.parse(String(init.body)) as PricesAnswer['offer'];
    return json({ ...read, offer, setBy: 'boss', setAt: SET_AT, terms: offerTerms(offer) } satisfies PricesAnswer);
  });
}

const preview = () => screen.getByText(/^New members will be charged: |^The terms new members will be charged show here/).textContent;
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

async function openAsOwner(read = DEFAULTS, put?: () => Response) {
  const fetchMock = serve(read, put);
  render(<Prices canChange onSignedOut={vi.fn()} />);
  await screen.findByLabelText('Price');
  return fetchMock;
}

describe('the Prices screen', () => {
  it('previews the terms of a valid draft, and none while a field is out of bounds', async () => {
    await openAsOwner();
    expect(screen.getByText(/Configured defaults \(MEMBERSHIP_PRICE, MEMBERSHIP_PERIOD_DAYS\); never changed here/)).toBeTruthy();
    expect(screen.getByLabelText('Price')).toHaveProperty('value', '14.99');
    expect(screen.getByLabelText('Every (days)')).toHaveProperty('value', '30');
    expect(preview()).toBe('New members will be charged: $14.99 today, then $14.99 every 30 days until you cancel.');
    expect(screen.queryByLabelText('Trial price')).toBeNull();

    fireEvent.click(screen.getByLabelText('Offer a trial'));
    type('Trial price', '1.95');
    type('Trial length (days)', '2');
    const trial = { price: '14.99', periodDays: 30, trial: { price: '1.95', days: 2 } };
    expect(preview()).toBe(`New members will be charged: ${offerTerms(trial)}`);

    type('Trial price', '14.99');
    expect(preview()).not.toMatch(/^New members will be charged/);
    type('Trial price', '1.95');
    type('Every (days)', '366');
    expect(preview()).not.toMatch(/^New members will be charged/);
    type('Every (days)', '30');
    type('Price', '14.9');
    expect(preview()).not.toMatch(/^New members will be charged/);
  });

  it('asks to confirm once, then PUTs the draft and shows who changed it', async () => {
    const fetchMock = await openAsOwner();
    type('Price', '19.90');
    fireEvent.click(screen.getByLabelText('Offer a trial'));
    type('Trial price', '1.95');
    type('Trial length (days)', '2');
    fireEvent.click(screen.getByRole('button', { name: 'Save prices' }));

    const confirm = screen.getByRole('group', { name: 'Confirm the new prices' });
    expect(confirm.textContent).toContain('Save: new sign-ups from now on get these terms. Existing members keep theirs.');
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'PUT')).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Yes, save prices' }));
    expect((await screen.findByRole('status')).textContent).toBe('Saved. New sign-ups get these terms.');
    const puts = fetchMock.mock.calls.filter(([, init]) => init?.method === 'PUT');
    expect(puts).toHaveLength(1);
    expect(JSON.parse(String(puts[0]![1]!.body))).toEqual({ price: '19.90', periodDays: 30, trial: { price: '1.95', days: 2 } });
    expect(screen.getByText(/Last changed by boss on 2026-03-04 09:30 UTC\./)).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'Confirm the new prices' })).toBeNull();
  });

  it("shows the server's sentence when it refuses the prices", async () => {
    const message = 'trial.price: a trial must cost less than a full period';
    await openAsOwner(DEFAULTS, () => json({ error: { code: 'bad_request', message } }, 400));
    fireEvent.click(screen.getByRole('button', { name: 'Save prices' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, save prices' }));
    expect((await screen.findByRole('alert')).textContent).toBe(message);
    expect(screen.queryByRole('status')).toBeNull();
    // The form stays as typed, ready for another try.
    expect(screen.getByRole('button', { name: 'Save prices' })).toBeTruthy();
  });

  it('is read-only for support: fields disabled, no Save, a line saying only an owner can change prices', async () => {
    const set: PricesAnswer = {
      ...DEFAULTS,
      offer: { price: '19.90', periodDays: 30, trial: { price: '1.95', days: 2 } },
      setBy: 'boss',
      setAt: SET_AT,
    };
    const fetchMock = serve(set);
    render(<Prices canChange={false} onSignedOut={vi.fn()} />);
    expect(await screen.findByText('Only an owner can change prices.')).toBeTruthy();
    for (const label of ['Price', 'Every (days)', 'Offer a trial', 'Trial price', 'Trial length (days)'])
      expect(screen.getByLabelText(label), label).toHaveProperty('disabled', true);
    expect(screen.getByLabelText('Trial price')).toHaveProperty('value', '1.95');
    expect(screen.queryByRole('button', { name: 'Save prices' })).toBeNull();
    expect(screen.getByText(/Last changed by boss on 2026-03-04 09:30 UTC\./)).toBeTruthy();
    // The default VOD price: read, with no field and no Save.
    expect(await screen.findByText(/^In force: \$6\.50\./)).toBeTruthy();
    expect(screen.queryByLabelText('Default price')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save VOD price' })).toBeNull();
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
  });
});

describe('the default VOD price on the Prices screen', () => {
  it('sets the default VOD price, and clears it when emptied', async () => {
    const fetchMock = await openAsOwner();
    const field = await screen.findByLabelText('Default price');
    expect(field).toHaveProperty('value', '6.50');
    fireEvent.change(field, { target: { value: ' 7.25 ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save VOD price' }));
    expect(await screen.findByText('Saved. A VOD ingested without a price now costs $7.25.')).toBeTruthy();
    fireEvent.change(field, { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save VOD price' }));
    expect(await screen.findByText('Cleared. Every VOD needs its own price.')).toBeTruthy();
    const puts = fetchMock.mock.calls.filter(([url, init]) => url === '/api/admin/prices/vod' && init?.method === 'PUT');
    expect(puts.map(([, init]) => JSON.parse(String(init?.body)))).toEqual([{ price: '7.25' }, { price: null }]);
  });
});
