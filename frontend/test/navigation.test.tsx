import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { calledUrls, json, renderAt, stubFetch } from './render';
import { AGE_CONFIRMED_KEY } from '../src/features/age-gate/components/AgeGate';

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
