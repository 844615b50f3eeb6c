import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import type { Playback } from '../src/features/player/api/playback';
import { ContinueWatching } from '../src/features/player/ContinueWatching';
import { PlayerSection } from '../src/features/player/PlayerSection';
import { cueAt, parseThumbnailTrack } from '../src/features/player/thumbnails';
import { formatTime } from '../src/features/player/time';
import { pickRendition } from '../src/features/player/VideoPlayer';
import { setSession, type Member } from '../src/hooks/useSession';
import { calledUrls, json, stubFetch } from './render';

const MEMBER: Member = { username: 'member_a', membership: { active: true, paidUntil: '2099-01-01' }, vods: [], mediaTokenSeconds: 300 };

const RENDITIONS = [
  {
    label: '1080p',
    url: '/members/videorenditions/clip-1/1080p.mp4',
    width: 1920,
    height: 1080,
    bitrate: 4_800_000,
    type: 'video/mp4; codecs="avc1.640028, mp4a.40.2"',
  },
  {
    label: '480p',
    url: '/members/videorenditions/clip-1/480p.mp4',
    width: 854,
    height: 480,
    bitrate: 1_500_000,
    type: 'video/mp4; codecs="avc1.64001e, mp4a.40.2"',
  },
];

function playback(overrides: Partial<Playback> = {}): Playback {
  return {
    type: 'video',
    path: 'clip-1',
    updatename: 'Quiet Harbour',
    modelname: 'Model A1',
    access: 'granted',
    state: 'ready',
    progress: null,
    duration: 120.5,
    poster: '/members/videopreviews/clip-1/poster.jpg',
    thumbnails: '/members/videopreviews/clip-1/thumbs.vtt',
    trailer: '/members/videopreviews/clip-1/trailer.mp4',
    renditions: RENDITIONS,
    download: '/members/video/clip-1/clip-1_HD001.mp4',
    position: { seconds: 0, duration: 120.5, completed: false, updatedAt: null },
    ...overrides,
  };
}

const VTT =
  'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nsprite.jpg#xywh=0,0,160,90\n\n00:00:01.000 --> 00:00:02.000\nsprite.jpg#xywh=160,0,160,90\n';

function show(node: React.ReactNode) {
  return render(<MemoryRouter initialEntries={['/video/clip-1']}>{node}</MemoryRouter>);
}

afterEach(() => setSession({ status: 'unknown' }));

describe('player helpers', () => {
  it('reads a thumbnails track, resolving the sprite against the track URL', () => {
    const cues = parseThumbnailTrack(VTT, 'http://site.test/members/videopreviews/clip-1/thumbs.vtt');
    expect(cues).toEqual([
      { start: 0, end: 1, image: 'http://site.test/members/videopreviews/clip-1/sprite.jpg', x: 0, y: 0, w: 160, h: 90 },
      { start: 1, end: 2, image: 'http://site.test/members/videopreviews/clip-1/sprite.jpg', x: 160, y: 0, w: 160, h: 90 },
    ]);
    expect(cueAt(cues, 1.5)?.x).toBe(160);
    expect(cueAt(cues, 99)?.x).toBe(160);
    expect(cueAt(cues, -1)?.x).toBe(0);
    expect(parseThumbnailTrack('WEBVTT\n\nnot a cue\n', 'http://site.test/t.vtt')).toEqual([]);
  });

  it('picks the smallest rendition at least as tall as the player, else the largest', () => {
    expect(pickRendition(RENDITIONS, 1920, 1)?.label).toBe('1080p');
    expect(pickRendition(RENDITIONS, 800, 1)?.label).toBe('480p');
    expect(pickRendition(RENDITIONS, 360, 1)?.label).toBe('480p');
    expect(pickRendition(RENDITIONS, 360, 3)?.label).toBe('1080p');
    expect(pickRendition(RENDITIONS.slice(1), 1920, 2)?.label).toBe('480p');
  });

  it('formats times', () => {
    expect([formatTime(0), formatTime(83.4), formatTime(3725)]).toEqual(['0:00', '1:23', '1:02:05']);
  });
});

describe('PlayerSection', () => {
  it('gives a member with a membership the native player with poster, rendition and previews', async () => {
    setSession({ status: 'signedIn', member: MEMBER });
    stubFetch((url) => (url.endsWith('/thumbs.vtt') ? new Response(VTT) : json(playback())));
    show(<PlayerSection type="video" folder="clip-1" />);
    const group = await screen.findByRole('group', { name: 'Video player: Quiet Harbour' });
    const video = group.querySelector('video')!;
    expect(video.getAttribute('src')).toMatch(/^\/members\/videorenditions\/clip-1\/(1080p|480p)\.mp4$/);
    expect(video.getAttribute('poster')).toBe('/members/videopreviews/clip-1/poster.jpg');
    expect(video.hasAttribute('controls')).toBe(true);
    expect(video.hasAttribute('playsinline')).toBe(true);
    expect(screen.getByRole('combobox', { name: /Quality/ })).toBeTruthy();
  });

  it('shows a visitor the muted looping trailer and the join prompt, never a rendition', async () => {
    setSession({ status: 'signedOut' });
    const fetchMock = stubFetch(() => json(playback({ access: 'sign_in', renditions: [], download: null, position: null })));
    const { container } = show(<PlayerSection type="video" folder="clip-1" />);
    await screen.findByText(/This video is for members/);
    const trailer = container.querySelector('video')!;
    expect(trailer.getAttribute('src')).toBe('/members/videopreviews/clip-1/trailer.mp4');
    expect(trailer.muted && trailer.loop && trailer.autoplay).toBe(true);
    expect(screen.getByRole('link', { name: 'Join to watch and download' }).getAttribute('href')).toBe('/join');
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/login?next=%2Fvideo%2Fclip-1');
    expect(calledUrls(fetchMock)).toEqual(['/api/playback/video/clip-1']);
  });

  it('tells a member without the VOD that this is the trailer (buying is the page’s own button)', async () => {
    setSession({ status: 'signedIn', member: MEMBER });
    stubFetch(() => json(playback({ type: 'vod', access: 'purchase_required', renditions: [], download: null, position: null })));
    show(<PlayerSection type="vod" folder="clip-1" />);
    await screen.findByText('This is the trailer. Buy this VOD to watch all of it.');
  });

  it('does not speak of a trailer a VOD does not have yet', async () => {
    setSession({ status: 'signedOut' });
    stubFetch(() =>
      json(
        playback({
          type: 'vod',
          access: 'sign_in',
          state: 'preparing',
          progress: 0,
          poster: null,
          thumbnails: null,
          trailer: null,
          renditions: [],
          download: null,
          position: null,
        }),
      ),
    );
    const { container } = show(<PlayerSection type="vod" folder="clip-1" />);
    await screen.findByText('Sign in and buy this VOD to watch all of it.');
    expect(container.querySelector('video')).toBeNull();
  });

  it('says the video is being prepared while the encoder works', async () => {
    setSession({ status: 'signedIn', member: MEMBER });
    stubFetch(() =>
      json(playback({ state: 'preparing', progress: 0.42, duration: null, poster: null, thumbnails: null, trailer: null, renditions: [] })),
    );
    show(<PlayerSection type="video" folder="clip-1" />);
    await screen.findByText('This video is being prepared for playback (42 %). You can download it meanwhile.');
  });

  it('asks nothing while the session is unknown', () => {
    const fetchMock = stubFetch(() => json(playback()));
    const { container } = show(<PlayerSection type="video" folder="clip-1" />);
    expect(container.textContent).toBe('');
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('ContinueWatching', () => {
  it('lists the member’s unfinished videos with where they stopped', async () => {
    setSession({ status: 'signedIn', member: MEMBER });
    stubFetch(() =>
      json({
        items: [
          {
            type: 'video',
            path: 'clip-1',
            updatename: 'Quiet Harbour',
            modelname: 'Model A1',
            thumbnail: null,
            seconds: 42.5,
            duration: 120.5,
            updatedAt: '2026-11-23T11:45:21.803Z',
          },
        ],
      }),
    );
    show(<ContinueWatching />);
    await screen.findByRole('heading', { name: 'Continue watching' });
    expect(screen.getByRole('link', { name: 'Quiet Harbour' }).getAttribute('href')).toBe('/video/clip-1');
    expect(screen.getByText('0:42 of 2:00')).toBeTruthy();
  });

  it('shows nothing and asks nothing for a visitor', () => {
    setSession({ status: 'signedOut' });
    const fetchMock = stubFetch(() => json({ items: [] }));
    const { container } = show(<ContinueWatching />);
    expect(container.textContent).toBe('');
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
