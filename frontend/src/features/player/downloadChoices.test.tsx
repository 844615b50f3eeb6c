import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { DownloadChoices, formatBytes } from './DownloadChoices';
import type { DownloadChoice } from './api/playback';
import { PlayerSection } from './PlayerSection';
import { setSession, type Member } from '../../hooks/useSession';
import { calledUrls, json, renderAt, stubFetch } from '../../test/render';

const DOWNLOADS: DownloadChoice[] = [
  { label: 'Original', bytes: 1_234_567_890, path: '/members/video/clip-1/Clip_A1_HD001.mp4' },
  { label: '1080p', bytes: 640_000_000, path: '/members/videorenditions/clip-1/Clip_A1_HD001_1080p.mp4' },
  { label: '720p', bytes: 312_400_000, path: '/members/videorenditions/clip-1/Clip_A1_HD001_720p.mp4' },
  { label: '480p', bytes: 9_540_000, path: '/members/videorenditions/clip-1/Clip_A1_HD001_480p.mp4' },
];
const MEMBER: Member = {
  username: 'member_a',
  membership: { active: true, paidUntil: '2099-01-01' },
  vods: ['vod-one'],
  mediaTokenSeconds: 300,
};

afterEach(() => setSession({ status: 'unknown' }));

describe('formatBytes', () => {
  it.each([
    [1_234_567_890, '1.2 GB'],
    [12_345_678_901, '12 GB'],
    [640_000_000, '640 MB'],
    [9_540_000, '9.5 MB'],
    [9_960_000, '10 MB'],
    [999_700_000, '1.0 GB'],
    [10_000_000, '10 MB'],
    [438_000, '438 KB'],
    [1_500, '1.5 KB'],
    [0, '0.0 KB'],
  ])('%d → %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});

describe('DownloadChoices', () => {
  it('labels each size and asks for a signed link of the clicked one', async () => {
    const fetchMock = stubFetch((url) =>
      url.startsWith('/api/download-link') ? json({ url: '/members/x?sig=1', expiresAt: '2099-01-01T00:00:00Z' }) : json({}, 404),
    );
    render(<DownloadChoices downloads={DOWNLOADS} />);
    const group = screen.getByRole('group', { name: 'Download sizes' });
    expect(group.textContent).toBe('Download:Original (1.2 GB)1080p (640 MB)720p (312 MB)480p (9.5 MB)');
    const buttons = within(group).getAllByRole('button');
    expect(buttons.map((b) => b.textContent)).toEqual(['Original (1.2 GB)', '1080p (640 MB)', '720p (312 MB)', '480p (9.5 MB)']);
    fireEvent.click(buttons[2]!);
    await waitFor(() => expect(calledUrls(fetchMock)).toEqual([`/api/download-link?path=${encodeURIComponent(DOWNLOADS[2]!.path)}`]));
    fireEvent.click(buttons[0]!);
    await waitFor(() => expect(calledUrls(fetchMock)[1]).toBe(`/api/download-link?path=${encodeURIComponent(DOWNLOADS[0]!.path)}`));
  });

  it('shows an unknown original size as plain "Original", and nothing when the original alone has no size', () => {
    const { rerender } = render(<DownloadChoices downloads={[{ ...DOWNLOADS[0]!, bytes: null }, DOWNLOADS[1]!]} />);
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['Original', '1080p (640 MB)']);
    rerender(<DownloadChoices downloads={[{ ...DOWNLOADS[0]!, bytes: null }]} />);
    expect(screen.queryByRole('group')).toBeNull();
    rerender(<DownloadChoices downloads={[]} />);
    expect(screen.queryByRole('group')).toBeNull();
  });

  it('says why a link could not be made', async () => {
    stubFetch(() => json({ error: { code: 'forbidden', message: 'no' } }, 403));
    render(<DownloadChoices downloads={DOWNLOADS} />);
    fireEvent.click(screen.getByRole('button', { name: '720p (312 MB)' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This download is not open to your account.');
  });

  it('appears under the player for a granted item', async () => {
    setSession({ status: 'signedIn', member: MEMBER });
    stubFetch((url) =>
      url.startsWith('/api/playback/')
        ? json({
            type: 'video',
            path: 'clip-1',
            updatename: 'Clip',
            modelname: 'M',
            access: 'granted',
            state: 'preparing',
            progress: 0.5,
            duration: null,
            poster: null,
            thumbnails: null,
            trailer: null,
            renditions: [],
            download: DOWNLOADS[0]!.path,
            downloads: DOWNLOADS,
            position: null,
          })
        : json({}, 404),
    );
    render(
      <MemoryRouter>
        <PlayerSection type="video" folder="clip-1" />
      </MemoryRouter>,
    );
    const group = await screen.findByRole('group', { name: 'Download sizes' });
    expect(within(group).getAllByRole('button')).toHaveLength(4);
  });

  it('lists each bought VOD\'s sizes on /account, keeping its "Download {title}" button', async () => {
    setSession({ status: 'signedIn', member: MEMBER });
    const original = '/members/vod/vod-one/vod one.mp4';
    stubFetch((url) => {
      if (url === '/api/me') return json(MEMBER);
      if (url === '/api/account') {
        return json({
          ...MEMBER,
          email: 'a@example.com',
          membership: { ...MEMBER.membership, renews: true },
          vodItems: [
            {
              path: 'vod-one',
              updatename: 'VOD one',
              download: original,
              downloads: [{ ...DOWNLOADS[0]!, path: original }, DOWNLOADS[1]!],
            },
          ],
        });
      }
      return json({ error: { code: 'not_found', message: 'unknown' } }, 404);
    });
    renderAt('/account');
    const group = await screen.findByRole('group', { name: 'Download sizes' });
    expect(
      within(group)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Original (1.2 GB)', '1080p (640 MB)']);
    expect(screen.getAllByRole('button', { name: /^Download/ }).map((b) => b.textContent)).toEqual(['Download VOD one']);
  });
});
