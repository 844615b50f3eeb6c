import { render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FreeSets } from '../src/features/home/components/FreeSets';
import { calledUrls, json, stubFetch } from './render';

const renderFreeSets = () =>
  render(
    <MemoryRouter>
      <ul>
        <FreeSets />
      </ul>
    </MemoryRouter>,
  );

afterEach(() => vi.restoreAllMocks());

describe('free photo sets on home (issue 23)', () => {
  it('lists the free sets, each linking to its /freephotos page', async () => {
    const fetchMock = stubFetch(() =>
      json([
        { path: 'free-preview-studio', updatename: 'Free Preview Studio', thumbnail: null },
        { path: 'a b', updatename: 'Spaced', thumbnail: '/freephotos/a%20b/1.jpg' },
      ]),
    );
    renderFreeSets();
    await screen.findByRole('heading', { name: 'Free photo sets' });
    expect(screen.getByRole('link', { name: 'Free Preview Studio' }).getAttribute('href')).toBe('/freephotos/free-preview-studio');
    expect(screen.getByRole('link', { name: 'Spaced' }).getAttribute('href')).toBe('/freephotos/a%20b');
    expect(calledUrls(fetchMock)).toEqual(['/api/freephotos/1']);
  });

  it('shows nothing when there are none or the list cannot be had (home keeps its columns)', async () => {
    for (const answer of [json([]), json({ error: { code: 'not_found', message: 'x' } }, 404)]) {
      const fetchMock = stubFetch(() => answer);
      const { container, unmount } = renderFreeSets();
      await waitFor(() => expect(fetchMock).toHaveBeenCalled());
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(container.textContent).toBe('');
      unmount();
    }
  });
});
