import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runPaymentChain } from './chain';
import type { RunPaymentChain } from './chain';
import { PaymentForm } from './components/PaymentForm';
import { FIELD_NAMES, HIDDEN_DEFAULTS } from './formData';
import { paymentConfig } from './config';
import { validFields, vodDetail } from '../../test/fixtures';
import { json, renderAt, resetSession, signedIn, stubFetch } from '../../test/render';

const MEMBER = { username: 'member_a', membership: { active: true, paidUntil: '2099-01-01' }, vods: [], mediaTokenSeconds: 300 };

function fillExceptCredentials(form: HTMLElement) {
  const values = { ...validFields(), expYear: String(new Date().getFullYear() + 2) };
  for (const name of FIELD_NAMES) {
    const control = form.querySelector(`[name="${name}"]`);
    if (control) fireEvent.change(control, { target: { value: values[name] } });
  }
}

afterEach(resetSession);

describe('VOD purchase form', () => {
  it('asks a signed-in member for no new username or password and shows the VOD price on the button', async () => {
    const runChain = vi.fn<RunPaymentChain>(async () => true);
    const { container } = render(<PaymentForm runChain={runChain} vod={{ path: 'vod-1', price: '24.5' }} />);
    expect(container.querySelector('[name="username"]')).toBeNull();
    expect(container.querySelector('[name="password"]')).toBeNull();
    expect(container.querySelector('[name="email"]')).not.toBeNull();
    expect(screen.getByRole('group', { name: 'Your receipt' })).toBeTruthy();
    fillExceptCredentials(container);
    fireEvent.click(screen.getByRole('button', { name: 'Pay $24.50' }));
    await waitFor(() => expect(runChain).toHaveBeenCalledTimes(1));
  });

  it('keeps the membership form as it was', () => {
    const { container } = render(<PaymentForm runChain={vi.fn()} />);
    expect(container.querySelector('[name="username"]')).not.toBeNull();
    expect(screen.getByRole('button', { name: 'Pay $14.99' })).toBeTruthy();
  });
});

describe('/ccbill?vod=', () => {
  function routes(extra: Record<string, () => Response> = {}) {
    const answers: Record<string, () => Response> = {
      '/api/me': () => json(MEMBER),
      '/api/vod/prename/vod-1': () => json(vodDetail(1)),
      ...extra,
    };
    return stubFetch((url) => answers[url]?.() ?? json({ error: { code: 'not_found', message: 'unknown' } }, 404));
  }

  it('shows the VOD, its price and a form without credentials to a signed-in member', async () => {
    signedIn(true);
    routes();
    const { container } = renderAt('/ccbill?vod=vod-1');
    expect(await screen.findByRole('heading', { name: 'Buy VOD: VOD 1 ($24.99)' })).toBeTruthy();
    expect(screen.getByText(/bought as member_a/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Pay $24.99' })).toBeTruthy();
    expect(container.querySelector('[name="username"]')).toBeNull();
  });

  it("prefills the member's own e-mail for the receipt", async () => {
    signedIn(true);
    routes({
      '/api/account': () =>
        json({
          ...MEMBER,
          email: 'member_a@example.com',
          membership: { ...MEMBER.membership, renews: true, cancellable: true },
          vodItems: [],
          releaseMail: false,
        }),
    });
    renderAt('/ccbill?vod=vod-1');
    const email = await screen.findByLabelText('E-mail');
    await waitFor(() => expect((email as HTMLInputElement).value).toBe('member_a@example.com'));
  });

  it('sends a visitor to sign in first', async () => {
    routes();
    renderAt('/ccbill?vod=vod-1');
    const prompt = await screen.findByText(/to buy this VOD/);
    const link = within(prompt).getByRole('link', { name: 'Sign in' });
    expect(link.getAttribute('href')).toBe(`/login?next=${encodeURIComponent('/ccbill?vod=vod-1')}`);
    expect(screen.queryByRole('button', { name: /^Pay/ })).toBeNull();
  });

  it('says so when the VOD is unknown or taken down', async () => {
    signedIn(true);
    routes({ '/api/vod/prename/vod-1': () => json({ error: { code: 'not_found', message: 'no such VOD' } }, 404) });
    renderAt('/ccbill?vod=vod-1');
    expect(await screen.findByText('This VOD is not available.')).toBeTruthy();
  });
});

describe('runPaymentChain for a VOD', () => {
  it('sends only the VOD at step 1 and no username or password with the charge', async () => {
    window.history.replaceState({}, '', '/ccbill?vod=vod-1');
    const TOKEN_URL = `${paymentConfig.providerBase}/payment-tokens/merchant-only-verify`;
    const answers: Record<string, () => Response> = {
      '/api/get_ccbill_token': () => json({ access_token: 'front-token' }),
      [TOKEN_URL]: () => json({ paymentTokenId: 'a'.repeat(32) }),
      '/api/get_ccbill_back_token': () => json({ access_token: 'back-token' }),
      '/api/process_payment': () => json({ approved: true }),
    };
    const fetchMock = stubFetch((url) => answers[url]?.() ?? json({}, 404));
    const form = { ...validFields(), username: '', password: '', ...HIDDEN_DEFAULTS };
    expect(await runPaymentChain(form, { onStatus: () => {} })).toBe(true);
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({ vod: 'vod-1' });
    const charge = JSON.parse(String(fetchMock.mock.calls[3]?.[1]?.body));
    expect(charge.vod).toBe('vod-1');
    expect(charge.formData).not.toHaveProperty('username');
    expect(charge.formData).not.toHaveProperty('password');
    expect(charge.formData.email).toBe('member@example.com');
  });
});
