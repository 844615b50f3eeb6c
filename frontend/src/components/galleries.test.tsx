import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { calledUrls, json, renderAt, stubFetch } from '../test/render';
import { photo, video } from '../test/fixtures';

const full = (make: (id: number) => unknown, from = 1) => Array.from({ length: 10 }, (_, index) => make(from + index));

/** Opens `path` with every fetch answered by `respond`, and waits for `first` (a card's title) to show. */
async function openGallery(path: string, respond: (url: string) => Response, first: string) {
  const fetchMock = stubFetch(respond);
  renderAt(path);
  await screen.findByText(first);
  return fetchMock;
}

describe('/photos paging and sort', () => {
  it('starts alphabetically on page 1 with Previous disabled and the date button', async () => {
    const fetchMock = await openGallery('/photos', () => json(full(photo)), 'Photo Set 1');
    expect(calledUrls(fetchMock)).toContain('/api/photos/1');
    expect(screen.getByRole('button', { name: 'Previous' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Next' })).toHaveProperty('disabled', false);
    expect(screen.getByRole('button', { name: 'Sort by Date' })).toBeTruthy();
    // The button names the other order; the line beside it says the order shown.
    expect(screen.getByTestId('sorted-by').textContent).toBe('Sorted A–Z');
    expect(screen.getAllByText('Uploaded: 2024-02-01')).toHaveLength(10);
  });

  it('pages forward and toggling the sort returns to page 1 of the date order', async () => {
    const fetchMock = await openGallery(
      '/photos?page=1&sort=alpha',
      (url) => json(full(photo, url.endsWith('/2') ? 11 : 1)),
      'Photo Set 1',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Photo Set 11');
    expect(calledUrls(fetchMock)).toContain('/api/photos/2');
    expect(screen.getByRole('button', { name: 'Previous' })).toHaveProperty('disabled', false);

    fireEvent.click(screen.getByRole('button', { name: 'Sort by Date' }));
    await screen.findByRole('button', { name: 'Sort by Name' });
    await waitFor(() => expect(calledUrls(fetchMock)).toContain('/api/photos-by-date/1'));
    expect(screen.getByText('Page 1')).toBeTruthy();
  });

  it('disables Next when fewer than 10 items came back', async () => {
    await openGallery('/photos?page=3&sort=date', () => json([photo(1), photo(2)]), 'Photo Set 1');
    expect(screen.getByRole('button', { name: 'Next' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Sort by Name' })).toBeTruthy();
    expect(screen.getByTestId('sorted-by').textContent).toBe('Sorted by date, newest first');
  });

  it('links each card to its photo set', async () => {
    stubFetch(() => json([photo(7)]));
    renderAt('/photos');
    const link = await screen.findByRole('link', { name: 'Photo Set 7' });
    expect(link.getAttribute('href')).toBe('/photos/set-7');
  });
});

describe('/videos paging and sort', () => {
  it('uses the videos endpoints and labels', async () => {
    const fetchMock = await openGallery('/videos', () => json(full(video)), 'Video 1');
    expect(calledUrls(fetchMock)).toContain('/api/videos/1');
    fireEvent.click(screen.getByRole('button', { name: 'Sort by Date' }));
    await screen.findByRole('button', { name: 'Sort Alphabetically' });
    await waitFor(() => expect(calledUrls(fetchMock)).toContain('/api/videos-by-date/1'));
    expect(screen.getByRole('link', { name: 'Video 1' }).getAttribute('href')).toBe('/video/clip-1');
  });

  it('reads a bad page number as page 1', async () => {
    const fetchMock = await openGallery('/videos?page=abc', () => json([video(1)]), 'Video 1');
    expect(calledUrls(fetchMock)).toEqual(['/api/videos/1']);
  });
});
