import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderAt, stubFetch, json } from '../../test/render';

const CONFIG = { providerBase: '', clientAccnum: 1, clientSubacc: 0, membershipPrice: '14.99' };

async function pageText(path: string, offer: object = { price: '14.99', periodDays: 30, trial: null, renews: true }): Promise<string> {
  stubFetch((url) => (url === '/api/payment-config' ? json({ ...CONFIG, offer }) : json([])));
  renderAt(path);
  const main = await screen.findByRole('main');
  await screen.findByRole('heading', { level: 1 }, { timeout: 3000 });
  return main.textContent ?? '';
}

describe('static pages', () => {
  it('/2257 states all models are 18+ and names the records custodian by e-mail', async () => {
    const text = await pageText('/2257');
    expect(text).toContain('18 years of age or older');
    expect(text).toMatch(/custodian of records.*@example\.com/);
  });

  it('/privatesales lists ten models and an e-mail to inquire', async () => {
    await pageText('/privatesales');
    expect(document.querySelectorAll('main ol li')).toHaveLength(10);
    expect(screen.getByRole('link', { name: 'support@example.com' }).getAttribute('href')).toMatch(/^mailto:/);
  });

  it('/join explains the temporary way in, VODs, the card frame and cancelling', async () => {
    const text = await pageText('/join');
    await screen.findByText('$14.99 for 30 days');
    expect(document.querySelector('.join-lead')?.textContent).toBe(
      '$14.99 for 30 days, renewed every 30 days until you cancel. Members get:',
    );
    expect(text).toContain('money-transfer service');
    expect(text).toContain('not part of the membership');
    expect(text).toContain("card billing provider's consumer support");
    const frame = screen.getByTitle('Membership payment form');
    expect(frame.getAttribute('src')).toBe('/ccbill');
    expect(frame.getAttribute('height')).toBe('600');
  });

  it('/join states a trial and what follows it, from the server', async () => {
    await pageText('/join', { price: '14.99', periodDays: 30, trial: { price: '1.95', days: 2 }, renews: true });
    await screen.findByText('$1.95 for 2 days');
    expect(document.querySelector('.join-lead')?.textContent).toBe(
      '$1.95 for 2 days, then $14.99 every 30 days until you cancel. Members get:',
    );
  });

  it('/contact covers address, support, reports, review, appeals, outcomes and confidentiality', async () => {
    const text = await pageText('/contact');
    for (const heading of [
      'Postal address',
      'Membership support',
      'Reporting content',
      'Review process',
      'Appeals',
      'Outcomes',
      'Confidentiality',
    ]) {
      expect(screen.getByRole('heading', { name: heading })).toBeTruthy();
    }
    expect(text).toContain('48 hours');
    expect(text).toContain('seven business days');
    expect(text).toContain('14 business days');
  });

  it('/links shows banner links to fellow sites', async () => {
    await pageText('/links');
    expect(document.querySelectorAll('a.banner').length).toBeGreaterThanOrEqual(3);
  });

  it.each(['/forum', '/free'])('%s says Coming Soon', async (path) => {
    expect(await pageText(path)).toContain('Coming Soon');
  });

  it('/test says Test Route Match', async () => {
    expect(await pageText('/test')).toContain('Test Route Match');
  });

  it('an unknown address shows the not-found page', async () => {
    expect(await pageText('/no/such/page')).toContain('Page not found');
  });

  it('/affiliates has a signup form and a load form limited to 15 characters', async () => {
    await pageText('/affiliates');
    for (const label of ['Current ID', 'Username', 'Password']) {
      expect(screen.getByLabelText(label).getAttribute('maxlength')).toBe('15');
    }
    const forms = document.querySelectorAll('form[method="post"]');
    expect(forms).toHaveLength(2);
  });
});

describe('layout', () => {
  it('has the navigation links in order, a search box and the 2257 footer link', async () => {
    await pageText('/test');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect([...nav.querySelectorAll('a')].map((a) => a.textContent)).toEqual([
      'Home',
      'Private Sales',
      'VOD',
      'Photos',
      'Videos',
      'Join',
      'Models',
      'Links',
      'Contact',
      'Affiliates',
    ]);
    expect(screen.getByRole('search')).toBeTruthy();
    const footer = screen.getByRole('contentinfo');
    expect(footer.querySelector('a[href="/2257"]')).not.toBeNull();
    expect(screen.getByRole('banner')).toBeTruthy();
  });
});
