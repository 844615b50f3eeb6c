import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { calledUrls, json, renderAt, stubFetch } from '../test/render';
import { FakeIntersectionObserver } from '../test/intersection';
import { update, vod } from '../test/fixtures';
import { rememberedPages, rememberedScroll, resetHistoryMemory } from './historyMemory';

const range = (from: number, count: number) => Array.from({ length: count }, (_, index) => from + index);

beforeEach(() => FakeIntersectionObserver.install());

describe('home', () => {
  it('splits one feed into three columns and loads the next page at the bottom', async () => {
    const types = ['photo', 'video', 'vod'] as const;
    const page = (start: number, count: number) => range(start, count).map((id) => update(types[id % 3] ?? 'photo', id));
    // No free sets here (their strip has tests of its own, freeSets.test.tsx).
    const fetchMock = stubFetch((url) => json(url === '/api/freephotos/1' ? [] : url.endsWith('/1') ? page(1, 30) : page(31, 3)));
    renderAt('/');
    await screen.findByText('photo update 3');

    const column = (name: string) => screen.getByText(name).closest('section')?.querySelectorAll('li') ?? [];
    expect(column('Latest Photos')).toHaveLength(10);
    expect(column('Latest Videos')).toHaveLength(10);
    expect(column('Latest VODs')).toHaveLength(10);
    expect(screen.getByText('video update 1').closest('a')?.getAttribute('href')).toBe('/video/video-1');
    expect(document.querySelector('.top-link a')?.getAttribute('href')).toBe('/2257');

    FakeIntersectionObserver.show('.sentinel');
    await screen.findByText('vod update 32');
    expect(calledUrls(fetchMock).filter((url) => !['/api/freephotos/1', '/api/coming-soon', '/api/payment-config'].includes(url))).toEqual([
      '/api/updates/1',
      '/api/updates/2',
    ]);
    // A short page is the end: the sentinel goes away.
    expect(document.querySelector('.sentinel')).toBeNull();
  });
});

describe('/vod', () => {
  it('watches its sentinel with a 20px margin and appends the next page', async () => {
    const fetchMock = stubFetch((url) => json(url.endsWith('/1') ? range(1, 20).map(vod) : [vod(21)]));
    renderAt('/vod');
    await screen.findByText('VOD 20');
    const sentinelObserver = FakeIntersectionObserver.instances.find((observer) =>
      [...observer.elements].some((element) => element.matches('.sentinel')),
    );
    expect(sentinelObserver?.options.rootMargin).toBe('20px');
    FakeIntersectionObserver.show('.sentinel');
    await screen.findByText('VOD 21');
    expect(calledUrls(fetchMock)).toEqual(['/api/vod/1', '/api/vod/2']);
    expect(screen.getByRole('link', { name: 'VOD 21' }).getAttribute('href')).toBe('/vod/vod-21');
  });

  it('keeps the scroll position and page count per history entry and restores them after a reload', async () => {
    const scrollTo = vi.fn();
    vi.stubGlobal('scrollTo', scrollTo);
    stubFetch((url) => json(url.endsWith('/3') ? [vod(41)] : range(1, 20).map(vod)));
    const first = renderAt('/vod');
    await screen.findByText('VOD 20');
    window.scrollY = 1234;
    window.dispatchEvent(new Event('scroll'));
    first.unmount();
    // /vod has one memory for every visit (spec §2); other routes keep one per history entry.
    const stored = JSON.parse(window.sessionStorage.getItem('historyMemory') ?? '{}') as { scroll: object; pages: object };
    expect(stored.scroll).toEqual({ 'every-visit:/vod': 1234 });
    expect(stored.pages).toEqual({ 'every-visit:/vod|list': 1 });

    // A reload: the rows are gone, the counts remain in session storage.
    resetHistoryMemory();
    window.sessionStorage.setItem(
      'historyMemory',
      JSON.stringify({ scroll: { 'every-visit:/vod': 2500 }, pages: { 'every-visit:/vod|list': 3 } }),
    );
    Object.defineProperty(document.documentElement, 'scrollHeight', { configurable: true, value: 10_000 });
    const fetchMock = stubFetch((url) => json(url.endsWith('/3') ? [vod(41)] : range(url.endsWith('/2') ? 21 : 1, 20).map(vod)));
    renderAt('/vod');
    await screen.findByText('VOD 41');
    expect(calledUrls(fetchMock)).toEqual(['/api/vod/1', '/api/vod/2', '/api/vod/3']);
    await waitFor(() => expect(scrollTo).toHaveBeenCalledWith(0, 2500));
    delete (document.documentElement as { scrollHeight?: number }).scrollHeight;
  });

  it('shows Retry when a later page fails and asks for that page again', async () => {
    let failures = 1;
    const fetchMock = stubFetch((url) => {
      if (url.endsWith('/2') && failures-- > 0) return json({ error: { code: 'unavailable', message: 'down' } }, 503);
      return json(url.endsWith('/1') ? range(1, 20).map(vod) : [vod(21)]);
    });
    renderAt('/vod');
    await screen.findByText('VOD 20');
    FakeIntersectionObserver.show('.sentinel');
    await screen.findByText('Error: HTTP error! status: 503');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await screen.findByText('VOD 21');
    expect(screen.getByText('VOD 1')).toBeTruthy();
    expect(screen.queryByText(/^Error:/)).toBeNull();
    expect(calledUrls(fetchMock)).toEqual(['/api/vod/1', '/api/vod/2', '/api/vod/2']);
  });
});

describe('history memory in a new document of the same tab', () => {
  // Every document's first entry has the router key "default": a new visit (the address typed, a link
  // from elsewhere) must not take the place an earlier document's first entry had; a reload keeps it.
  it.each([
    ['navigate', null, {}],
    ['reload', 480, { count: 3 }],
    ['back_forward', 480, { count: 3 }],
  ])('opened by %s: the first entry restores %s', (type, scroll, pages) => {
    window.sessionStorage.setItem(
      'historyMemory',
      JSON.stringify({ scroll: { 'default:/': 480, 'k1:/photos': 200 }, pages: { 'default:/|updates': 3, 'k1:/vod|vod': 2 } }),
    );
    vi.stubGlobal('performance', { getEntriesByType: (kind: string) => (kind === 'navigation' ? [{ type }] : []) });
    resetHistoryMemory();
    expect(rememberedScroll('default:/')).toBe(scroll);
    expect(rememberedPages('default:/|updates')).toEqual(pages);
    // Entries the router made keep theirs either way.
    expect(rememberedScroll('k1:/photos')).toBe(200);
    expect(rememberedPages('k1:/vod|vod')).toEqual({ count: 2 });
  });
});
