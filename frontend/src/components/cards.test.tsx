import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { durationFact, photoCountFact } from './cardFacts';
import { forgetSpriteTracks, framesOf, tileStyle } from './useSpritePreview';
import { forgetFreeSets } from '../features/home/components/FreeSets';
import { photo, update, video, vod } from '../test/fixtures';
import { calledUrls, json, renderAt, resetSession, stubFetch } from '../test/render';

// Listing cards show photo count and running time, video cards preview their
// sprite on hover, model pages and search results use the listings' cards.

const TRACK = '/members/videopreviews/clip-1/thumbs.vtt';
// Four 160x90 tiles in a 320x180 sheet, 10 s each.
const VTT = [
  'WEBVTT',
  '00:00:00.000 --> 00:00:10.000\nsprite.jpg#xywh=0,0,160,90',
  '00:00:10.000 --> 00:00:20.000\nsprite.jpg#xywh=160,0,160,90',
  '00:00:20.000 --> 00:00:30.000\nsprite.jpg#xywh=0,90,160,90',
  '00:00:30.000 --> 00:00:40.000\nsprite.jpg#xywh=160,90,160,90',
].join('\n\n');

/** A device that can hover (a mouse) or not (a touch-only phone), and whether motion is reduced. */
function device({ hover = true, reducedMotion = false } = {}) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query.includes('hover') ? hover : query.includes('reduced-motion') ? reducedMotion : false,
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  }));
}

function stubCatalog() {
  return stubFetch((url) => {
    if (url === '/api/me') return json({ error: { code: 'unauthenticated', message: 'no session' } }, 401);
    if (url === '/api/photos/1') return json([photo(1)]);
    if (url === '/api/videos/1') return json([video(1), video(3)]);
    if (url === '/api/vod/1') return json([vod(1)]);
    if (url === '/api/updates/1') return json([update('photo', 1), update('video', 2), update('vod', 3)]);
    if (url === '/api/freephotos/1') return json([{ path: 'free-1', updatename: 'Free One', thumbnail: null, photocount: 8 }]);
    if (url === TRACK) return new Response(VTT, { status: 200, headers: { 'Content-Type': 'text/vtt' } });
    return json({ error: { code: 'not_found', message: 'none' } }, 404);
  });
}

/** The preview laid over a card's picture, once it shows. */
const previewIn = (link: HTMLElement) =>
  waitFor(() => {
    const preview = link.querySelector<HTMLElement>('.card-preview');
    if (!preview) throw new Error('no preview yet');
    return preview;
  });

/** The badges beside a card's link, as a screen reader reads them. */
const factsOf = (title: string) =>
  [...(screen.getByRole('link', { name: title }).closest('li')?.querySelectorAll('.badge-fact') ?? [])].map((b) => b.textContent);

beforeEach(() => device());
afterEach(() => {
  resetSession();
  forgetSpriteTracks();
  forgetFreeSets();
  vi.unstubAllGlobals();
});

describe('card facts', () => {
  it('formats counts and running times', () => {
    expect(photoCountFact(24)).toEqual({ text: '24 photos' });
    expect(photoCountFact(1)).toEqual({ text: '1 photo' });
    expect(photoCountFact(null)).toBeUndefined();
    expect(durationFact(754)).toEqual({ text: '12:34', label: 'Duration' });
    expect(durationFact(3723)?.text).toBe('1:02:03');
    expect(durationFact(null)).toBeUndefined();
  });

  it('a photo set card says how many photos', async () => {
    stubCatalog();
    renderAt('/photos');
    await screen.findByRole('link', { name: 'Photo Set 1' });
    expect(factsOf('Photo Set 1')).toEqual(['21 photos']);
  });

  it('a video card gives its running time, and nothing while it is unknown', async () => {
    stubCatalog();
    renderAt('/videos');
    await screen.findByRole('link', { name: 'Video 1' });
    expect(factsOf('Video 1')).toEqual(['Duration 12:34']);
    expect(factsOf('Video 3')).toEqual([]);
  });

  it('a VOD card gives its price and its running time past an hour', async () => {
    stubCatalog();
    renderAt('/vod');
    await screen.findByRole('link', { name: 'VOD 1' });
    expect(factsOf('VOD 1')).toEqual(['$24.99', 'Duration 1:02:03']);
  });

  it('home’s columns and the free sets carry the same facts', async () => {
    stubCatalog();
    renderAt('/');
    await screen.findByRole('link', { name: 'photo update 1' });
    expect(factsOf('photo update 1')).toEqual(['12 photos']);
    expect(factsOf('video update 2')).toEqual(['Duration 1:35']);
    expect(factsOf('vod update 3')).toEqual(['Duration 1:35']);
    await screen.findByRole('link', { name: 'Free One' });
    expect(factsOf('Free One')).toEqual(['8 photos']);
  });
});

/** The catalog stubbed and `path` rendered: the fetch stub and the link of the card named `name`. */
async function cardLink(path: string, name: string) {
  const fetchMock = stubCatalog();
  renderAt(path);
  return { fetchMock, link: await screen.findByRole('link', { name }) };
}

/** A moment for anything a hover or focus would start. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

/** The pointer over the card and the focus on it, then a moment. */
async function hoverAndFocus(link: HTMLElement) {
  fireEvent.pointerEnter(link);
  fireEvent.focus(link);
  await settle();
}

describe('sprite preview on video cards', () => {
  it('asks for nothing until the pointer is over the card, then steps through the sprite over the picture', async () => {
    const { fetchMock, link } = await cardLink('/videos', 'Video 1');
    expect(calledUrls(fetchMock)).not.toContain(TRACK);
    const picture = link.querySelector('.card-picture') as HTMLElement;
    vi.spyOn(picture, 'getBoundingClientRect').mockReturnValue({ width: 320, height: 180 } as DOMRect);

    fireEvent.pointerEnter(link);
    const preview = await previewIn(link);
    expect(calledUrls(fetchMock).filter((u) => u === TRACK)).toHaveLength(1);
    expect(preview.getAttribute('aria-hidden')).toBe('true');
    expect(preview.style.backgroundImage).toContain('/members/videopreviews/clip-1/sprite.jpg');
    // Each 160x90 tile scaled 2x to the 320x180 box: the sheet is 640x360.
    expect(preview.style.backgroundSize).toBe('640px 360px');
    const first = preview.style.backgroundPosition;
    await waitFor(() => expect(preview.style.backgroundPosition).not.toBe(first), { timeout: 3000 });
    // The picture box is the same box: the preview lies over it.
    expect(preview.parentElement).toBe(picture);

    fireEvent.pointerLeave(link);
    await waitFor(() => expect(link.querySelector('.card-preview')).toBeNull());
    fireEvent.pointerEnter(link);
    await previewIn(link);
    expect(calledUrls(fetchMock).filter((u) => u === TRACK)).toHaveLength(1);
  });

  it('keyboard focus previews too', async () => {
    const { link } = await cardLink('/videos', 'Video 1');
    fireEvent.focus(link);
    await previewIn(link);
    fireEvent.blur(link);
    await waitFor(() => expect(link.querySelector('.card-preview')).toBeNull());
  });

  it('with reduced motion one frame from the middle stands still', async () => {
    device({ reducedMotion: true });
    const { link } = await cardLink('/videos', 'Video 1');
    vi.spyOn(link.querySelector('.card-picture') as HTMLElement, 'getBoundingClientRect').mockReturnValue({
      width: 320,
      height: 180,
    } as DOMRect);
    fireEvent.pointerEnter(link);
    const preview = await previewIn(link);
    // The third of four tiles (0,90), scaled 2x.
    expect(preview.style.backgroundPosition).toBe('0px -180px');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(preview.style.backgroundPosition).toBe('0px -180px');
  });

  it('a touch-only phone never asks for the track, on touch or focus', async () => {
    device({ hover: false });
    const { fetchMock, link } = await cardLink('/videos', 'Video 1');
    await hoverAndFocus(link);
    expect(calledUrls(fetchMock)).not.toContain(TRACK);
    expect(link.querySelector('.card-preview')).toBeNull();
  });

  it('a touch on a device that also hovers does not preview', async () => {
    const { fetchMock, link } = await cardLink('/videos', 'Video 1');
    const touch = new Event('pointerover', { bubbles: true });
    Object.defineProperty(touch, 'pointerType', { value: 'touch' });
    fireEvent(link, touch);
    await settle();
    expect(calledUrls(fetchMock)).not.toContain(TRACK);
  });

  it('a clip not encoded yet (preview null) asks for nothing and keeps its picture', async () => {
    const { fetchMock, link } = await cardLink('/videos', 'Video 3');
    await hoverAndFocus(link);
    expect(calledUrls(fetchMock).some((u) => u.includes('previews'))).toBe(false);
    expect(link.querySelector('.card-preview')).toBeNull();
  });

  it('a track that cannot be had (404) shows the picture alone, and is not asked again', async () => {
    const { fetchMock, link } = await cardLink('/vod', 'VOD 1');
    fireEvent.pointerEnter(link);
    await waitFor(() => expect(calledUrls(fetchMock)).toContain('/members/vodpreviews/vod-1/thumbs.vtt'));
    await settle();
    expect(link.querySelector('.card-preview')).toBeNull();
    fireEvent.pointerLeave(link);
    fireEvent.pointerEnter(link);
    await settle();
    expect(calledUrls(fetchMock).filter((u) => u.includes('previews'))).toHaveLength(1);
  });

  it('photo set cards have no preview', async () => {
    const { fetchMock, link } = await cardLink('/photos', 'Photo Set 1');
    await hoverAndFocus(link);
    expect(calledUrls(fetchMock).some((u) => u.includes('previews'))).toBe(false);
  });

  it('picks frames spread over the clip and scales a tile to cover the box', () => {
    const cues = Array.from({ length: 20 }, (_, i) => ({ start: i, end: i + 1, image: 's.jpg', x: (i % 5) * 160, y: 0, w: 160, h: 90 }));
    expect(framesOf(cues).map((c) => c.start)).toEqual([1, 5, 8, 11, 15, 18]);
    // A 4:3 box over a 16:9 tile: scaled to the height, centred.
    expect(tileStyle(cues[1]!, { width: 800, height: 90 }, 240, 180)).toEqual({
      backgroundImage: 'url("s.jpg")',
      backgroundSize: '1600px 180px',
      backgroundPosition: '-360px 0px',
    });
  });
});

describe('model page', () => {
  const detail = {
    modelname: 'Model A1',
    thumbnail: '/members/photosthumbs/set-9/large.jpg',
    photos: [
      {
        photo_id: 1,
        path: 'set-1',
        updatename: 'Set One',
        datetoupload: '2025-02-01',
        thumbnail: '/members/photosthumbs/set-1/large.jpg',
        photocount: 24,
      },
      {
        photo_id: 9,
        path: 'set-9',
        updatename: 'Set Nine',
        datetoupload: '2024-02-01',
        thumbnail: '/members/photosthumbs/set-9/large.jpg',
        photocount: 1,
      },
    ],
    videos: [
      {
        video_id: 2,
        path: 'clip-2',
        updatename: 'Clip Two',
        datetoupload: '2025-01-01',
        thumbnail: '/members/videothumbs/clip-2/clip-2_02.jpg',
        duration: 754,
      },
    ],
    vods: [],
  };

  it('opens with a portrait and the counts, then the listings’ cards with their facts', async () => {
    stubFetch((url) =>
      url === '/api/modelname/Model%20A1' ? json(detail) : json({ error: { code: 'unauthenticated', message: 'x' } }, 401),
    );
    renderAt('/models/Model%20A1');
    await screen.findByRole('heading', { name: 'Photos' });
    expect(document.querySelector('.model-portrait img')?.getAttribute('src')).toMatch(/^\/members\/photosthumbs\/set-9\/large\.jpg/);
    expect(screen.getByRole('list', { name: 'What there is' }).textContent).toBe('2 photo sets1 video0 VODs');
    expect(factsOf('Set One')).toEqual(['24 photos']);
    expect(factsOf('Set Nine')).toEqual(['1 photo']);
    expect(factsOf('Clip Two')).toEqual(['Duration 12:34']);
    expect(screen.getByRole('link', { name: 'Clip Two' }).querySelector('img')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'VODs' })).toBeNull();
  });
});

describe('search results', () => {
  it('shows each hit in a listing card with its picture, facts and model link', async () => {
    const base = (path: string, thumbs: string) => ({
      path,
      updatename: `Title ${path}`,
      modelname: 'Model A1',
      thumbnail: `/members/${thumbs}/${path}/large.jpg`,
    });
    stubFetch((url) =>
      url.startsWith('/api/search/')
        ? json({
            photos: [{ ...base('p1', 'photosthumbs'), photocount: 7 }],
            videos: [{ ...base('v1', 'videothumbs'), duration: 3723 }],
            vods: [],
          })
        : json({ error: { code: 'unauthenticated', message: 'x' } }, 401),
    );
    renderAt('/search/Model%20A1');
    const card = (await screen.findByRole('link', { name: 'Title p1' })).closest('li.card') as HTMLElement;
    expect(card.querySelector('img')).toBeTruthy();
    expect(factsOf('Title p1')).toEqual(['7 photos']);
    expect(factsOf('Title v1')).toEqual(['Duration 1:02:03']);
    expect(within(card).getByRole('link', { name: 'Model A1' }).getAttribute('href')).toBe('/models/Model%20A1');
  });
});
