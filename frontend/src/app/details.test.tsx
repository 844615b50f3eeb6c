import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, renderAt, stubFetch } from '../test/render';
import { photo, video, vodDetail } from '../test/fixtures';

const srcs = (container: HTMLElement) => [...container.querySelectorAll('main img')].map((img) => img.getAttribute('src'));

describe('/video/{folder}', () => {
  it('shows a visitor the title, model, four stills and no download', async () => {
    const detail = {
      ...video(1),
      path: 'clip-1',
      updatename: 'Clip One HD',
      prename: 'Clip One HD001',
      download: '/members/video/clip-1/Clip%20One%20HD001.mp4',
    };
    stubFetch((url) =>
      url === '/api/videos/prename/clip-1' ? json(detail) : json({ error: { code: 'not_found', message: 'unknown' } }, 404),
    );
    const { container } = renderAt('/video/clip-1');
    await screen.findByRole('heading', { name: 'Clip One HD' });
    expect(screen.getByRole('link', { name: 'Model B2' }).getAttribute('href')).toBe('/models/Model%20B2');
    expect(srcs(container)).toEqual(['02', '05', '10', '15'].map((n) => `/members/videothumbs/clip-1/clip-1_${n}.jpg?w=640`));
    const srcset = container.querySelector('main img')?.getAttribute('srcset') ?? '';
    expect(srcset.split(', ')).toHaveLength(6);
    expect(srcset).toContain('/members/videothumbs/clip-1/clip-1_02.jpg?w=160 160w');
    // Members download through a signed link (a button); visitors see the player's lock instead.
    expect(screen.queryByRole('button', { name: 'Download' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Download' })).toBeNull();
    // Anyone can report it, with the item already in the form.
    expect(screen.getByRole('link', { name: 'Report this' }).getAttribute('href')).toBe('/contact?item=%2Fvideo%2Fclip-1');
  });
});

describe('/vod/{folder}', () => {
  it('shows a visitor stills, Buy for the price (to /join) and Sign in back to this page, no download', async () => {
    stubFetch(() => json(vodDetail(4)));
    const { container } = renderAt('/vod/vod-4');
    await screen.findByRole('heading', { name: 'VOD 4' });
    expect(srcs(container)).toHaveLength(4);
    expect(screen.getByRole('link', { name: 'Report this' }).getAttribute('href')).toBe('/contact?item=%2Fvod%2Fvod-4');
    expect((await screen.findByRole('link', { name: 'Buy for $24.99' })).getAttribute('href')).toBe('/join');
    expect(screen.getAllByRole('link', { name: 'Sign in' }).map((a) => a.getAttribute('href'))).toContain('/login?next=%2Fvod%2Fvod-4');
    expect(screen.queryByRole('link', { name: 'Download' })).toBeNull();
  });

  it('reads a 404 as the shared "This item isn\'t available" card', async () => {
    stubFetch(() => json({ error: { code: 'not_found', message: 'unknown vod' } }, 404));
    renderAt('/vod/missing');
    expect(await screen.findByRole('heading', { name: "This item isn't available" })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to the VODs' }).getAttribute('href')).toBe('/vod');
  });
});

describe('/photos/{folder}', () => {
  it('links each thumbnail to the member image', async () => {
    stubFetch(() => json({ ...photo(1), count: 2, files: ['01.jpg', '02.jpg'] }));
    const { container } = renderAt('/photos/set-1');
    const links = await screen.findAllByRole('link', { name: /Photo \d of 2/ });
    expect(links.map((link) => link.getAttribute('href'))).toEqual(['/members/photos/set-1/01.jpg', '/members/photos/set-1/02.jpg']);
    expect(srcs(container)).toEqual(['/members/photosthumbs/set-1/01.jpg?w=640', '/members/photosthumbs/set-1/02.jpg?w=640']);
  });
});

describe('/freephotos/{folder}', () => {
  it('shows the free images and partner links', async () => {
    stubFetch(() => json(['a.jpg']));
    const { container } = renderAt('/freephotos/free-1');
    await screen.findByRole('link', { name: 'Free photo 1 of 1' });
    expect(srcs(container)).toEqual(['/members/freephotos/free-1/a.jpg']);
    expect(screen.getByRole('complementary', { name: 'Partner sites' }).querySelectorAll('a')).toHaveLength(3);
  });
});

describe('/members single-image routes', () => {
  it('/members/freephotos/free-1/b.jpg opens the free photo in the viewer, with its place in the set', async () => {
    const path = '/members/freephotos/free-1/b.jpg';
    stubFetch(() => json(['a.jpg', 'b.jpg', 'c.jpg']));
    renderAt(path);
    const image = await screen.findByRole('img', { name: 'Photo 2 of 3, Free photos' });
    expect(image.getAttribute('src')).toBe(path);
    expect(screen.getByRole('link', { name: '← Previous' }).getAttribute('href')).toBe('/members/freephotos/free-1/a.jpg');
    expect(screen.getByRole('link', { name: /Back to the set/ }).getAttribute('href')).toBe('/freephotos/free-1');
  });

  it("a visitor's members photo the set does not have is not found, not the set's teaser", async () => {
    stubFetch(() => json({ ...photo(1), count: 2, files: ['01.jpg', '02.jpg'] }));
    renderAt('/members/photos/set-1/nope.jpg');
    expect(await screen.findByText('This set has no photo nope.jpg.')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Join to see the full set' })).toBeNull();
  });

  it("a visitor's members photo is the lock with the set's title and position, never a broken image", async () => {
    stubFetch(() => json({ ...photo(1), count: 2, files: ['01.jpg', '02.jpg'] }));
    const { container } = renderAt('/members/photos/set-1/02.jpg');
    await screen.findByRole('heading', { name: 'Photo Set 1' });
    expect(screen.getByText(/Photo 2 of 2/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Join to see the full set' }).getAttribute('href')).toBe('/join');
    expect(srcs(container)).toEqual(['/members/photosthumbs/set-1/02.jpg?w=320']);
  });

  it("a visitor's members video still is the lock with the way back to the video", async () => {
    stubFetch(() => json([]));
    renderAt('/members/video/clip-1/clip-1_02.jpg');
    await screen.findByRole('link', { name: 'Join to watch and download' });
    expect(screen.getByRole('link', { name: 'Back to the video' }).getAttribute('href')).toBe('/video/clip-1');
  });
});

describe('/search/{term}', () => {
  it('groups the results under Photos, Videos and VOD', async () => {
    const hit = (path: string) => ({ path, updatename: `Title ${path}`, modelname: 'Model A1' });
    stubFetch(() => json({ photos: [hit('p1')], videos: [hit('v1')], vods: [] }));
    renderAt('/search/Model%20A1');
    await screen.findByRole('heading', { name: 'Photos' });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toContain('Model A1');
    expect(screen.getByRole('heading', { name: 'Videos' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'VOD' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Title v1' }).getAttribute('href')).toBe('/video/v1');
    expect(screen.getByText('No matches.')).toBeTruthy();
  });
});
