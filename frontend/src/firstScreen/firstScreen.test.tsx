import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { calledUrls, json, renderAt, stubFetch } from '../test/render';
import { FakeIntersectionObserver } from '../test/intersection';
import { update } from '../test/fixtures';
import { startFirstScreen, takeEarlyAnswer } from './earlyAnswers';
import { thumbnailImage } from './thumbnailUrls';
import { resetSlow, SLOW_TEXT } from '../features/api/fetchJson';

const freeSet = { path: 'free-a', updatename: 'Free A', thumbnail: '/members/freephotos/free-a/free-a_01.jpg?w=640' };

beforeEach(() => {
  FakeIntersectionObserver.install();
  resetSlow();
});
afterEach(() => document.head.querySelectorAll('link[rel="preload"]').forEach((link) => link.remove()));

describe('card picture URLs', () => {
  it('gives thumbnails and free-set pictures a srcset over the ?w= widths, anything else as it is', () => {
    expect(thumbnailImage('/members/photosthumbs/a/large.jpg')).toEqual({
      src: '/members/photosthumbs/a/large.jpg?w=640',
      srcSet: [160, 320, 480, 640, 960, 1280].map((w) => `/members/photosthumbs/a/large.jpg?w=${w} ${w}w`).join(', '),
      sizes: '(min-width: 1024px) 20vw, 50vw',
    });
    const free = thumbnailImage(freeSet.thumbnail);
    expect(free.src).toBe(freeSet.thumbnail);
    expect(free.srcSet).toContain('/members/freephotos/free-a/free-a_01.jpg?w=320 320w');
    expect(thumbnailImage('/members/photos/a/1.jpg')).toEqual({ src: '/members/photos/a/1.jpg' });
  });
});

describe("home's early answers", () => {
  it('are fetched as nginx preloads them, used by home once, and its top row is preloaded', async () => {
    window.localStorage.setItem('ageConfirmed', 'true');
    const fetchMock = stubFetch((url) => json(url === '/api/freephotos/1' ? [freeSet] : [update('photo', 1), update('video', 2)]));
    startFirstScreen();
    // Plain GETs (no method, headers or credentials of their own): anything else would miss the preload.
    for (const [, init] of fetchMock.mock.calls) expect(Object.keys(init ?? {})).toEqual(['signal']);
    renderAt('/');
    await screen.findByText('photo update 1');
    await screen.findByText('Free A');
    // The two early answers once each; "Coming soon" asks for its own list and the hero for the
    // price a visitor is offered, neither preloaded.
    expect(calledUrls(fetchMock).sort()).toEqual(['/api/coming-soon', '/api/freephotos/1', '/api/payment-config', '/api/updates/1']);
    const preload = document.head.querySelector<HTMLLinkElement>('link[rel="preload"][as="image"]');
    expect(preload?.getAttribute('href')).toBe(freeSet.thumbnail);
    expect(preload?.getAttribute('imagesrcset')).toBe(thumbnailImage(freeSet.thumbnail).srcSet);
    expect(preload?.getAttribute('fetchpriority')).toBe('high');

    // Taken once: a later visit to home asks again.
    expect(await takeEarlyAnswer('/api/updates/1')).toEqual({ kind: 'none' });
  });

  it('that got no answer in time give home\'s "taking too long" at once, and home asks again by itself', async () => {
    let calls = 0;
    const fetchMock = stubFetch((url) => {
      if (url !== '/api/updates/1') return json([]);
      calls += 1;
      return calls === 1 ? Promise.reject(new DOMException('signal timed out', 'TimeoutError')) : json([update('photo', 5)]);
    });
    startFirstScreen();
    window.localStorage.setItem('ageConfirmed', 'true');
    renderAt('/');
    await screen.findByText(SLOW_TEXT);
    await screen.findByText('photo update 5');
    expect(calledUrls(fetchMock).filter((url) => url === '/api/updates/1')).toHaveLength(2);
  });

  it('fall back to home asking itself when the early answer failed, and preload nothing behind the age notice', async () => {
    let calls = 0;
    const fetchMock = stubFetch((url) => {
      if (url !== '/api/updates/1') return json([]);
      calls += 1;
      return calls === 1 ? json({ error: { code: 'unavailable', message: 'down' } }, 503) : json([update('vod', 3)]);
    });
    startFirstScreen();
    window.localStorage.setItem('ageConfirmed', 'true');
    renderAt('/');
    await screen.findByText('vod update 3');
    expect(calledUrls(fetchMock).filter((url) => url === '/api/updates/1')).toHaveLength(2);
    expect(document.head.querySelector('link[rel="preload"]')).toBeNull();
  });
});
