import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, never, renderAt, stubFetch } from '../test/render';
import { photo, update, video, vod, vodDetail } from '../test/fixtures';

// Every page that loads data, with the answer that fills it and a text that proves it rendered.
const PAGES: { path: string; api: string; body: unknown; shows: string }[] = [
  { path: '/', api: '/api/updates/1', body: [update('photo', 1), update('video', 2), update('vod', 3)], shows: 'vod update 3' },
  { path: '/vod', api: '/api/vod/1', body: [vod(1)], shows: 'VOD 1' },
  { path: '/photos', api: '/api/photos/1', body: [photo(1)], shows: 'Photo Set 1' },
  { path: '/videos', api: '/api/videos/1', body: [video(1)], shows: 'Video 1' },
  { path: '/models', api: '/api/models/A', body: [{ modelname: 'Model A1', thumbnail: null }], shows: 'Model A1' },
  {
    path: '/models/Model%20A1',
    api: '/api/modelname/Model%20A1',
    body: { photos: [{ photo_id: 1, path: 'p', updatename: 'Set One' }], videos: [], vods: [] },
    shows: 'Set One',
  },
  {
    path: '/video/clip-1',
    api: '/api/videos/prename/clip-1',
    body: { ...video(1), updatename: 'Clip One HD', prename: 'Clip One HD', download: '/members/video/clip-1/Clip One HD001.mp4' },
    shows: 'Clip One HD',
  },
  {
    path: '/photos/set-1',
    api: '/api/photos/set/set-1',
    body: { ...photo(1), count: 2, files: ['01.jpg', '02.jpg'] },
    shows: 'Photo Set 1',
  },
  { path: '/vod/vod-1', api: '/api/vod/prename/vod-1', body: vodDetail(1), shows: 'VOD 1' },
  { path: '/freephotos/free-1', api: '/api/freethumbnails/free-1', body: ['a.jpg'], shows: '' },
  { path: '/search/model', api: '/api/search/model', body: { photos: [photo(1)], videos: [], vods: [] }, shows: 'Photo Set 1' },
];

describe.each(PAGES)('$path', ({ path, api, body, shows }) => {
  it('shows Loading... while the answer is pending', async () => {
    stubFetch(never);
    renderAt(path);
    expect(await screen.findByText('Loading...', {}, { timeout: 3000 })).toBeTruthy();
  });

  it('shows the HTTP status of a non-OK answer', async () => {
    stubFetch(() => json({ error: { code: 'unavailable', message: 'down' } }, 503));
    renderAt(path);
    expect(await screen.findByText('Error: HTTP error! status: 503', {}, { timeout: 3000 })).toBeTruthy();
  });

  it('shows the message of a network error', async () => {
    stubFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    renderAt(path);
    expect(await screen.findByText('Error: Failed to fetch', {}, { timeout: 3000 })).toBeTruthy();
  });

  it('renders the loaded data', async () => {
    const fetchMock = stubFetch((url) => (url === api ? json(body) : json([])));
    const { container } = renderAt(path);
    if (shows) expect(await screen.findAllByText(shows, {}, { timeout: 3000 })).not.toHaveLength(0);
    else await screen.findAllByRole('img', {}, { timeout: 3000 });
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toContain(api);
    expect(container.textContent).not.toContain('Error:');
  });
});
