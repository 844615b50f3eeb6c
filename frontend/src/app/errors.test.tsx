import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RETRYING_TEXT } from '../components/StatusMessage';
import { resetSlow } from '../features/api/fetchJson';
import { FIELD_NAMES } from '../features/payment/formData';
import { paymentConfig } from '../features/payment/config';
import { OUTAGE_RETRY_MS, setSession } from '../hooks/useSession';
import { photo, validFields, vodDetail } from '../test/fixtures';
import { json, renderAt, resetSession, signedIn, stubFetch } from '../test/render';

// Errors that help: a missing item, an outage of the bff and the moment after buying a VOD.

const MEMBER = {
  username: 'member_a',
  membership: { active: true, paidUntil: '2099-01-01' },
  vods: [] as string[],
  mediaTokenSeconds: 300,
};
const notFound = () => json({ error: { code: 'not_found', message: 'unknown' } }, 404);
const OUTAGE = "We can't reach the site right now. Your session is still there; try again in a moment.";

afterEach(resetSession);

const noIndex = () => document.head.querySelectorAll('meta[name="robots"][content="noindex"]').length;

async function expectUnavailable(back: { name: string; href: string }) {
  const heading = await screen.findByRole('heading', { name: "This item isn't available" });
  // The SPA answers 200 everywhere: the page itself says it is not one to index.
  expect(noIndex()).toBe(1);
  const card = within(heading.closest('section')!);
  expect(card.getByRole('link', { name: back.name }).getAttribute('href')).toBe(back.href);
  expect(card.getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/');
  expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  expect(screen.queryByText(/HTTP error/)).toBeNull();
}

describe('a missing or taken-down item', () => {
  it.each([
    ['/video/gone', { name: 'Back to the videos', href: '/videos' }],
    ['/photos/gone', { name: 'Back to the photo sets', href: '/photos' }],
    ['/vod/gone', { name: 'Back to the VODs', href: '/vod' }],
    ['/models/Nobody', { name: 'Back to the models', href: '/models' }],
  ])('%s shows the same "isn\'t available" card with a way back and no Retry', async (path, back) => {
    stubFetch(notFound);
    renderAt(path);
    await expectUnavailable(back);
  });

  it('the photo viewer shows it too, for a member whose set was taken down', async () => {
    signedIn(true);
    stubFetch((url) => (url === '/api/me' ? json(MEMBER) : notFound()));
    renderAt('/members/photos/gone/01.jpg');
    await expectUnavailable({ name: 'Back to the photo sets', href: '/photos' });
  });

  it('the photo viewer sends a photo the set does not have back to the set', async () => {
    signedIn(true);
    stubFetch((url) => (url === '/api/me' ? json(MEMBER) : json({ ...photo(1), count: 1, files: ['01.jpg'] })));
    renderAt('/members/photos/set-1/99.jpg');
    await expectUnavailable({ name: 'Back to the set', href: '/photos/set-1' });
  });

  it('a 410 (gone) reads the same', async () => {
    stubFetch(() => json({ error: { code: 'gone', message: 'taken down' } }, 410));
    renderAt('/video/gone');
    await expectUnavailable({ name: 'Back to the videos', href: '/videos' });
  });
});

describe('a missing page', () => {
  it('says so and is marked noindex only while it is shown', async () => {
    stubFetch(notFound);
    const view = renderAt('/no/such/page');
    await screen.findByRole('heading', { name: 'Page not found' });
    expect(noIndex()).toBe(1);
    view.unmount();
    expect(noIndex()).toBe(0);
  });
});

describe('Retry', () => {
  it('is offered for a server error and asks again', async () => {
    let calls = 0;
    stubFetch(() =>
      ++calls === 1 ? json({ error: { code: 'internal', message: 'boom' } }, 503) : json({ ...photo(1), count: 0, files: [] }),
    );
    renderAt('/photos/set-1');
    await screen.findByText('Error: HTTP error! status: 503');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Photo Set 1' })).toBeTruthy();
  });

  it('is not needed: a page asks again on its own after a growing pause, and heals when the site is back', async () => {
    resetSlow();
    let calls = 0;
    stubFetch(() =>
      ++calls <= 2 ? json({ error: { code: 'unavailable', message: 'down' } }, 503) : json({ ...photo(1), count: 0, files: [] }),
    );
    renderAt('/photos/set-1');
    await screen.findByText('Error: HTTP error! status: 503');
    expect(screen.getByText(RETRYING_TEXT)).toBeTruthy();
    // 1 s, then 2 s: no click.
    expect(await screen.findByRole('heading', { name: 'Photo Set 1' }, { timeout: 8000 })).toBeTruthy();
    expect(calls).toBe(3);
  });

  it('is offered for a network error', async () => {
    stubFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    renderAt('/vod/vod-1');
    await screen.findByText('Error: Failed to fetch');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });

  it('is never offered for a 4xx, nor asked again on its own', async () => {
    resetSlow();
    let calls = 0;
    stubFetch(() => (calls++, json({ error: { code: 'forbidden', message: 'no' } }, 403)));
    renderAt('/video/clip-1');
    await screen.findByText('Error: HTTP error! status: 403');
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
    expect(screen.queryByText(RETRYING_TEXT)).toBeNull();
    const asked = calls;
    await act(() => new Promise((r) => setTimeout(r, 1500)));
    expect(calls).toBe(asked);
  });
});

describe('a backend outage is not signing out', () => {
  it.each([502, 503, 504, 500])('keeps a signed-in member on /account when /api/me answers %i, and Retry recovers', async (status) => {
    signedIn(true);
    let up = false;
    stubFetch((url) => {
      if (!up) return url === '/api/me' ? new Response('<html>Bad Gateway</html>', { status }) : json({}, status);
      if (url === '/api/me') return json(MEMBER);
      if (url === '/api/account') return json({ ...MEMBER, membership: { ...MEMBER.membership, renews: true }, vodItems: [] });
      return notFound();
    });
    renderAt('/account');
    expect(await screen.findByText(OUTAGE)).toBeTruthy();
    expect(screen.queryByLabelText('Password')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Sign in' })).toBeNull();
    up = true;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByTestId('membership-status')).toBeTruthy();
    expect(screen.queryByText(OUTAGE)).toBeNull();
  });

  it('keeps a network failure as unknown too, with the last member known in this tab', async () => {
    signedIn(true);
    // An earlier page of this tab saw the member; the reload now finds the bff away.
    setSession({ status: 'signedIn', member: MEMBER });
    setSession({ status: 'unknown' });
    stubFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    renderAt('/account');
    expect(await screen.findByText(OUTAGE)).toBeTruthy();
    expect(screen.getByText('Signed in as member_a.')).toBeTruthy();
    expect(screen.queryByLabelText('Password')).toBeNull();
  });

  it('still sends a real 401 to the sign-in form', async () => {
    signedIn(true);
    stubFetch((url) => (url === '/api/me' ? json({ error: { code: 'unauthenticated', message: 'sign in' } }, 401) : notFound()));
    renderAt('/account');
    expect(await screen.findByLabelText('Password')).toBeTruthy();
    expect(screen.queryByText(OUTAGE)).toBeNull();
  });
});

describe('after an approved VOD purchase', () => {
  it('says "Payment approved — opening your VOD…", never "You already own this VOD.", until the VOD page opens', async () => {
    signedIn(true);
    window.history.replaceState({}, '', '/ccbill?vod=vod-1');
    let paid = false;
    const answers: Record<string, () => Response> = {
      '/api/me': () => json({ ...MEMBER, vods: paid ? ['vod-1'] : [] }),
      '/api/vod/prename/vod-1': () => json(vodDetail(1)),
      '/api/get_ccbill_token': () => json({ access_token: 'front-token' }),
      [`${paymentConfig.providerBase}/payment-tokens/merchant-only-verify`]: () => json({ paymentTokenId: 'a'.repeat(32) }),
      '/api/get_ccbill_back_token': () => json({ access_token: 'back-token' }),
      '/api/process_payment': () => {
        paid = true;
        return json({ approved: true });
      },
    };
    stubFetch((url) => answers[url]?.() ?? notFound());
    const { container } = renderAt('/ccbill?vod=vod-1');
    await screen.findByRole('button', { name: 'Pay $24.99' });
    const values = { ...validFields(), expYear: String(new Date().getFullYear() + 2) };
    for (const name of FIELD_NAMES) {
      const control = container.querySelector(`[name="${name}"]`);
      if (control) fireEvent.change(control, { target: { value: values[name] } });
    }
    const seen: string[] = [];
    const observer = new MutationObserver(() => seen.push(container.textContent ?? ''));
    observer.observe(container, { subtree: true, childList: true, characterData: true });
    fireEvent.click(screen.getByRole('button', { name: 'Pay $24.99' }));
    expect(await screen.findByText('Payment approved — opening your VOD…')).toBeTruthy();
    // The VOD page, with its thanks.
    expect(await screen.findByText('Thank you: this VOD is yours.')).toBeTruthy();
    observer.disconnect();
    expect(seen.some((text) => text.includes('already own'))).toBe(false);
  });
});

describe('after an outage', () => {
  it('asks /api/me again on its own and shows the account once the site answers', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      signedIn(true);
      let up = false;
      stubFetch((url) => {
        if (!up) return Promise.reject(new TypeError('Failed to fetch'));
        if (url === '/api/me') return json(MEMBER);
        if (url === '/api/account') return json({ ...MEMBER, membership: { ...MEMBER.membership, renews: true }, vodItems: [] });
        return notFound();
      });
      renderAt('/account');
      expect(await screen.findByText(OUTAGE)).toBeTruthy();
      up = true;
      await act(async () => {
        await vi.advanceTimersByTimeAsync(OUTAGE_RETRY_MS);
      });
      expect(await screen.findByTestId('membership-status')).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });
});
