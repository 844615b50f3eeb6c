import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { calledUrls, json, renderAt, stubFetch } from '../test/render';
import { AGE_CONFIRMED_KEY, isOpenPath } from '../features/age-gate/components/AgeGate';
import { routeTitle } from './routeTitles';

describe('search box', () => {
  it('goes to /search/{term} on submit', async () => {
    const fetchMock = stubFetch(() => json({ photos: [], videos: [], vods: [] }));
    renderAt('/test');
    await screen.findByText('Test Route Match');
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search' }), { target: { value: '  model a1 ' } });
    fireEvent.submit(screen.getByRole('search'));
    await screen.findByRole('heading', { name: /Search results for/ });
    await waitFor(() => expect(calledUrls(fetchMock)).toContain('/api/search/model%20a1'));
  });
});

describe('age gate', () => {
  it('asks first, and confirming stores the flag and shows the page', async () => {
    stubFetch(() => json([]));
    renderAt('/test', { ageConfirmed: false });
    const dialog = await screen.findByRole('dialog', { name: 'Adults only' });
    expect(dialog).toBeTruthy();
    expect(screen.queryByText('Test Route Match')).toBeNull();
    expect(document.activeElement?.textContent).toMatch(/Enter/);
    fireEvent.click(screen.getByRole('button', { name: /18 or older/ }));
    expect(window.localStorage.getItem(AGE_CONFIRMED_KEY)).toBe('true');
    expect(await screen.findByText('Test Route Match')).toBeTruthy();
  });

  it('declining leaves the site', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    renderAt('/', { ageConfirmed: false });
    fireEvent.click(await screen.findByRole('button', { name: 'Leave' }));
    expect(assign).toHaveBeenCalledWith('https://www.google.com/');
    expect(window.localStorage.getItem(AGE_CONFIRMED_KEY)).toBeNull();
  });

  it.each(['/2257', '/contact'])('%s is readable without confirming', async (path) => {
    renderAt(path, { ageConfirmed: false });
    await screen.findByRole('heading', { level: 1 }, { timeout: 3000 });
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('age gate: open paths', () => {
  it.each([
    ['/2257', true],
    ['/contact', true],
    ['/contact/', true],
    ['/reports/R-ABC123/appeal', true],
    ['/reports/R-ABC123/appeal/', true],
    ['/reports/R-ABC123', false],
    ['/', false],
    ['/photos', false],
  ])('%s open: %s', (path, open) => {
    expect(isOpenPath(path)).toBe(open);
  });

  it('shows the appeal form without asking', async () => {
    stubFetch(() => json({ error: { code: 'not_found', message: 'unknown' } }, 404));
    renderAt('/reports/R-ABC123/appeal', { ageConfirmed: false });
    await screen.findByRole('heading', { level: 1, name: 'Appeal a report decision' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('route titles', () => {
  it.each([
    ['/', 'Home'],
    ['/vod', 'VOD'],
    ['/vod/some-vod', 'VOD some-vod'],
    ['/photos', 'Photos'],
    ['/video/clip%201', 'Video clip 1'],
    ['/models/Model%20A1', 'Model A1'],
    ['/search/flex', 'Search: flex'],
    ['/reports/R-1/appeal', 'Appeal a report decision'],
    ['/no/such/page', 'Page not found'],
  ])('%s → %s', (path, title) => {
    expect(routeTitle(path)).toBe(title);
  });

  it('sets "{Page} – Media Site" for the route', async () => {
    stubFetch(() => json([]));
    renderAt('/models');
    await screen.findByRole('heading', { name: 'Models' });
    expect(document.title).toBe('Models – Media Site');
  });
});

describe('phone menu', () => {
  it('toggles aria-expanded, closes on Escape and on navigation', async () => {
    stubFetch(() => json([]));
    renderAt('/test');
    await screen.findByText('Test Route Match');
    const menu = screen.getByRole('button', { name: 'Menu' });
    expect(menu.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(menu);
    expect(menu.getAttribute('aria-expanded')).toBe('true');
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(menu.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(menu);
    fireEvent.click(menu);
    fireEvent.click(screen.getByRole('link', { name: 'Models' }));
    await screen.findByRole('heading', { name: 'Models' });
    expect(menu.getAttribute('aria-expanded')).toBe('false');
  });
});

describe('Retry', () => {
  it('asks again after a failed request and shows the answer', async () => {
    let failures = 1;
    const fetchMock = stubFetch(() =>
      failures-- > 0 ? json({ error: { code: 'unavailable', message: 'down' } }, 503) : json([{ modelname: 'Model A1', thumbnail: null }]),
    );
    renderAt('/models');
    await screen.findByText('Error: HTTP error! status: 503');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await screen.findByText('Model A1');
    expect(calledUrls(fetchMock)).toEqual(['/api/models/A', '/api/models/A']);
  });
});
