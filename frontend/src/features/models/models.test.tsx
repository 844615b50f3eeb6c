import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { calledUrls, json, renderAt, stubFetch } from '../../test/render';

describe('/models', () => {
  it('offers A to Z, starts on A and switches letter', async () => {
    const fetchMock = stubFetch((url) =>
      json([{ modelname: url.endsWith('/B') ? 'Béa & Co' : 'Model A1', thumbnail: '/members/photosthumbs/x/large.jpg' }]),
    );
    renderAt('/models');
    await screen.findByText('Model A1');
    const letters = screen.getByRole('group', { name: 'First letter' }).querySelectorAll('button');
    expect([...letters].map((button) => button.textContent).join('')).toBe('ABCDEFGHIJKLMNOPQRSTUVWXYZ');
    expect(screen.getByRole('button', { name: 'A' }).getAttribute('aria-pressed')).toBe('true');

    fireEvent.click(screen.getByRole('button', { name: 'B' }));
    const link = await screen.findByRole('link', { name: 'Béa & Co' });
    expect(link.getAttribute('href')).toBe('/models/B%C3%A9a%20%26%20Co');
    expect(calledUrls(fetchMock)).toEqual(['/api/models/A', '/api/models/B']);
  });
});

describe('model detail', () => {
  const detail = {
    photos: [{ photo_id: 1, path: 'set-1', updatename: 'Set One' }],
    videos: [{ video_id: 2, path: 'clip-2', updatename: 'Clip Two' }],
    vods: [{ vod_id: 3, path: 'vod-3', updatename: 'Vod Three' }],
  };

  it.each(['/models/', '/modelname/'])('%s{name} shows Photos, Videos and VODs', async (prefix) => {
    const fetchMock = stubFetch(() => json(detail));
    renderAt(`${prefix}Model%20A1`);
    expect(await screen.findByRole('heading', { name: 'Photos' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Videos' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'VODs' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Clip Two' }).getAttribute('href')).toBe('/video/clip-2');
    expect(screen.getByRole('link', { name: 'Vod Three' }).getAttribute('href')).toBe('/vod/vod-3');
    expect(calledUrls(fetchMock)).toEqual(['/api/modelname/Model%20A1']);
  });

  it('reads a 404 as No Model Details Available', async () => {
    stubFetch(() => json({ error: { code: 'not_found', message: 'unknown model' } }, 404));
    renderAt('/models/Nobody');
    expect(await screen.findByText('No Model Details Available')).toBeTruthy();
  });

  it('says No Model Details Available when the model has nothing', async () => {
    stubFetch(() => json({ photos: [], videos: [], vods: [] }));
    renderAt('/modelname/Empty');
    await waitFor(() => expect(screen.getByText('No Model Details Available')).toBeTruthy());
  });
});
