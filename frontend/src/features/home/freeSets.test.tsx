import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { FreeSets, forgetFreeSets } from './components/FreeSets';
import { calledUrls, json, never, renderAt, stubFetch } from '../../test/render';

const renderFreeSets = () =>
  render(
    <MemoryRouter>
      <ul>
        <FreeSets />
      </ul>
    </MemoryRouter>,
  );

afterEach(() => {
  vi.restoreAllMocks();
  forgetFreeSets();
});

describe('free photo sets on home', () => {
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

describe('free photo sets reached from every page', () => {
  const sets = [
    { path: 'free-preview-studio', updatename: 'Free Preview Studio', thumbnail: '/members/freephotos/free-preview-studio/1.jpg?w=640' },
  ];
  const answer = (url: string) => json(url === '/api/freephotos/1' ? sets : []);

  it('home shows the strip above the latest updates', async () => {
    stubFetch(answer);
    renderAt('/');
    const heading = await screen.findByRole('heading', { name: 'Free photo sets' });
    const section = heading.closest('section')!;
    expect(section.id).toBe('free-sets');
    expect(section.compareDocumentPosition(document.querySelector('.home-columns')!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Free Preview Studio' }).getAttribute('href')).toBe('/freephotos/free-preview-studio');
  });

  it('coming back to home draws the strip at once, before the list is asked again (nothing above a restored place moves)', async () => {
    stubFetch(answer);
    const first = renderAt('/');
    await screen.findByRole('heading', { name: 'Free photo sets' });
    first.unmount();
    const fetchMock = stubFetch((url) => (url === '/api/freephotos/1' ? never() : json([])));
    renderAt('/');
    expect(screen.getByRole('heading', { name: 'Free photo sets' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Free Preview Studio' })).toBeTruthy();
    await waitFor(() => expect(calledUrls(fetchMock)).toContain('/api/freephotos/1'));
  });

  it('the footer links to the strip; following it from another page scrolls home to it, and again from further down', async () => {
    // jsdom has no scrollIntoView: record the calls instead.
    const scrolled: Element[] = [];
    Element.prototype.scrollIntoView = function record(this: Element) {
      scrolled.push(this);
    };
    onTestFinished(() => {
      delete (Element.prototype as Partial<Element>).scrollIntoView;
    });
    stubFetch(answer);
    renderAt('/links');
    const link = screen.getByRole('link', { name: 'Free photo sets' });
    expect(link.getAttribute('href')).toBe('/#free-sets');
    expect(link.closest('footer')).not.toBeNull();
    fireEvent.click(link);
    await screen.findByRole('heading', { name: 'Free photo sets' });
    await waitFor(() => expect(scrolled.map((element) => element.id)).toEqual(['free-sets']));
    fireEvent.click(screen.getByRole('link', { name: 'Free photo sets' }));
    await waitFor(() => expect(scrolled).toHaveLength(2));
  });
});
