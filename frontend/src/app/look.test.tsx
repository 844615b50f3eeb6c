import { fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { LazyImage } from '../components/LazyImage';
import { continueItem, vod } from '../test/fixtures';
import { json, renderAt, resetSession, signedIn, stubFetch } from '../test/render';

// Presentation: the header, home's hero, sign-in and join pointing at each other, image
// skeletons and the facts on listing cards.
const MEMBER = { username: 'member_a', membership: { active: true, paidUntil: '2099-01-01' }, vods: [], mediaTokenSeconds: 300 };

/** The site's answers: a member's session when `member`, no updates, no free sets, one unfinished video. */
function stubSite({ member = false, vods = [] as unknown[] } = {}) {
  signedIn(member);
  return stubFetch((url) => {
    if (url === '/api/me') return json(MEMBER);
    if (url === '/api/positions') return json({ items: [continueItem()] });
    if (url === '/api/vod/1') return json(vods);
    if (url === '/api/payment-config')
      return json({ providerBase: '', clientAccnum: 1, clientSubacc: 0, membershipPrice: '14.99', offer: OFFER });
    return json([]);
  });
}

const OFFER = { price: '14.99', periodDays: 30, trial: null, renews: true };

afterEach(resetSession);

describe('header', () => {
  it('offers a visitor Join as a button and Sign in, and names nobody', async () => {
    stubSite();
    renderAt('/test');
    await screen.findByText('Test Route Match');
    const header = screen.getByRole('banner');
    const join = within(header).getByRole('link', { name: 'Join' });
    expect(join.getAttribute('href')).toBe('/join');
    expect(join.classList.contains('nav-join')).toBe(true);
    expect(within(header).getByRole('link', { name: 'Sign in' })).toBeTruthy();
    expect(header.querySelector('.menu-member')).toBeNull();
    expect(within(header).queryByRole('button', { name: 'Sign out' })).toBeNull();
  });

  it("gives a member Account, My list and their name with Sign out at the row's end, and their name with My list in the phone menu", async () => {
    stubSite({ member: true });
    renderAt('/test');
    const header = screen.getByRole('banner');
    await within(header).findByRole('button', { name: 'Sign out' });
    expect(header.querySelector('.session-member .session-name')?.textContent).toBe('member_a');
    const nav = within(header).getByRole('navigation', { name: 'Main' });
    expect(nav.querySelector('.menu-member')?.textContent).toBe('Signed in as member_a · My list');
    expect(header.querySelector('.session-member .session-list')?.getAttribute('href')).toBe('/my-list');
    expect(within(nav).getByRole('link', { name: 'Account' }).getAttribute('href')).toBe('/account');
    expect(within(header).queryByRole('link', { name: 'Join' })).toBeNull();
    expect(header.querySelector('.nav-join')).toBeNull();
  });
});

describe('home hero', () => {
  it('shows a visitor the pitch, Join and Sign in, below the 2257 line', async () => {
    stubSite();
    renderAt('/');
    const hero = await screen.findByRole('region', { name: 'Membership' });
    // The price is the server's offer (the console's Prices), said once it has arrived.
    await within(hero).findByText(
      'Full-size photo sets, videos that play right in the page and downloads that resume: $14.99 for 30 days.',
    );
    expect(within(hero).getByRole('link', { name: 'Join' }).getAttribute('href')).toBe('/join');
    expect(within(hero).getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/login');
    // The spec's top link stays first on the page, the hero comes after it, the columns after both.
    const legal = document.querySelector('main .top-link a');
    expect(legal?.getAttribute('href')).toBe('/2257');
    expect(legal!.compareDocumentPosition(hero) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(hero.compareDocumentPosition(screen.getByText('Latest Photos')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Welcome' })).toBeNull();
  });

  it('welcomes a member back with links to the newest updates and Continue watching, and no Join', async () => {
    stubSite({ member: true });
    renderAt('/');
    const hero = await screen.findByRole('region', { name: 'Welcome' });
    expect(hero.textContent).toContain('Welcome back, member_a.');
    expect(within(hero).getByRole('link', { name: 'New photo sets' }).getAttribute('href')).toBe('/photos?sort=date');
    expect(within(hero).getByRole('link', { name: 'New videos' }).getAttribute('href')).toBe('/videos?sort=date');
    expect(within(hero).getByRole('link', { name: 'VODs' }).getAttribute('href')).toBe('/vod');
    const row = await screen.findByRole('region', { name: 'Continue watching' });
    expect(within(row).getByRole('link', { name: 'Quiet Harbour' }).getAttribute('href')).toBe('/video/clip-1');
    expect(screen.queryByRole('region', { name: 'Membership' })).toBeNull();
    expect(within(screen.getByRole('main')).queryByRole('link', { name: 'Join' })).toBeNull();
  });
});

describe('sign-in and join link to each other', () => {
  it('sign-in offers "Not a member? Join" and keeps "Forgot password?"', async () => {
    stubSite();
    renderAt('/login');
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    const main = within(screen.getByRole('main'));
    const join = main.getByRole('link', { name: 'Join' });
    expect(join.getAttribute('href')).toBe('/join');
    expect(join.parentElement?.textContent).toBe('Not a member? Join');
    expect(main.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe('/forgot-password');
  });

  it('join offers a visitor "Already a member? Sign in"; a member is not asked', async () => {
    stubSite();
    const view = renderAt('/join');
    await screen.findByRole('heading', { level: 1, name: 'Join' });
    const signIn = within(screen.getByRole('main')).getByRole('link', { name: 'Sign in' });
    expect(signIn.getAttribute('href')).toBe('/login');
    expect(signIn.parentElement?.textContent).toBe('Already a member? Sign in');
    view.unmount();
    resetSession();

    stubSite({ member: true });
    renderAt('/join');
    await screen.findByRole('button', { name: 'Sign out' });
    expect(within(screen.getByRole('main')).queryByRole('link', { name: 'Sign in' })).toBeNull();
  });
});

describe('image skeletons', () => {
  it('shows the skeleton until the picture is in or failed, and again for a new picture', () => {
    const { container, rerender } = render(<LazyImage src="/members/photosthumbs/a/large.jpg" alt="" />);
    const box = container.querySelector('.lazy-image')!;
    expect(box.classList.contains('is-settled')).toBe(false);
    fireEvent.load(box.querySelector('img')!);
    expect(box.classList.contains('is-settled')).toBe(true);

    rerender(<LazyImage src="/members/photosthumbs/b/large.jpg" alt="" />);
    expect(box.classList.contains('is-settled')).toBe(false);
    fireEvent.error(box.querySelector('img')!);
    expect(box.classList.contains('is-settled')).toBe(true);
  });
});

describe('listing cards show what the API sends', () => {
  it('a VOD card shows its price beside the access mark', async () => {
    stubSite({ vods: [vod(1)] });
    renderAt('/vod');
    const card = (await screen.findByRole('link', { name: 'VOD 1' })).closest('li')!;
    expect(card.querySelector('.card-badge .badge-fact')?.textContent).toBe('$24.99');
  });
});
