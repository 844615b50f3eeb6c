import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SavedItem } from '@media-site/contracts/saved-api';
import { vodDetail } from '../../test/fixtures';
import { json, renderAt, resetSession, signedIn, stubFetch } from '../../test/render';

const MEMBER = { username: 'member_a', membership: { active: true, paidUntil: '2099-01-01' }, vods: [], mediaTokenSeconds: 300 };

const saved = (type: SavedItem['type'], key: string, title: string, savedAt: string): SavedItem => ({
  type,
  key,
  title,
  modelname: type === 'model' ? null : 'Model A1',
  thumbnail: null,
  savedAt,
});

const LIST: SavedItem[] = [
  saved('model', 'Model B2', 'Model B2', '2026-11-02T00:00:00.000Z'),
  saved('photo', 'set-1', 'Morning Light', '2026-11-01T00:00:00.000Z'),
];

afterEach(resetSession);

describe('My list', () => {
  it('lists what the member saved, newest first, each card linking to its page with its kind; a press removes one', async () => {
    signedIn(true);
    const fetchMock = stubFetch((url, init) => {
      if (url === '/api/me') return json(MEMBER);
      if (url === '/api/saved') return json({ items: LIST, limit: 500 });
      if (init?.method === 'DELETE') return new Response(null, { status: 204 });
      return json({ error: { code: 'not_found', message: 'unknown' } }, 404);
    });
    renderAt('/my-list');
    expect(await screen.findByRole('heading', { level: 1, name: 'My list' })).toBeTruthy();
    const grid = (await screen.findByText('2 items, newest first.')).nextElementSibling as HTMLElement;
    const cards = within(grid).getAllByRole('listitem');
    expect(cards.map((c) => within(c).getAllByRole('link')[0]!.getAttribute('href'))).toEqual(['/models/Model%20B2', '/photos/set-1']);
    expect(within(cards[1]!).getByText('Photo set')).toBeTruthy();
    expect(screen.getByText('2 items, newest first.')).toBeTruthy();
    // A model is followed: her heart says so.
    expect(within(cards[0]!).getByRole('button', { name: 'Follow Model B2' }).getAttribute('aria-pressed')).toBe('true');
    const heart = within(cards[1]!).getByRole('button', { name: 'Save Morning Light' });
    expect(heart.getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(heart);
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Morning Light' })).toBeNull());
    expect(fetchMock.mock.calls.some(([u, i]) => u === '/api/saved/photo/set-1' && i?.method === 'DELETE')).toBe(true);
    expect(screen.getByText('1 item, newest first.')).toBeTruthy();
  });

  it('says how to fill an empty list', async () => {
    signedIn(true);
    stubFetch((url) => (url === '/api/me' ? json(MEMBER) : json({ items: [], limit: 500 })));
    renderAt('/my-list');
    expect(await screen.findByText(/Nothing saved yet/)).toBeTruthy();
  });

  it('sends a visitor to sign in, to come back to the list', async () => {
    signedIn(false);
    stubFetch(() => json({ error: { code: 'unauthenticated', message: 'sign in' } }, 401));
    renderAt('/my-list');
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeTruthy();
  });

  it('saves from an item page at once, and on a refusal puts the heart back and says why', async () => {
    signedIn(true);
    let refuse = false;
    stubFetch((url, init) => {
      if (url === '/api/me') return json(MEMBER);
      if (url === '/api/saved') return json({ items: [], limit: 500 });
      if (init?.method === 'PUT') {
        if (refuse)
          return json({ error: { code: 'conflict', message: 'My list holds at most 500 items: remove one before saving another' } }, 409);
        return json({ item: saved('vod', 'vod-4', 'Vod 4', '2026-11-03T00:00:00.000Z') });
      }
      if (init?.method === 'DELETE') return new Response(null, { status: 204 });
      return json(vodDetail(4));
    });
    renderAt('/vod/vod-4');
    await screen.findByRole('heading', { level: 1 });
    const heart = await screen.findByRole('button', { name: /^Save / });
    expect(heart.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(heart);
    expect(heart.getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(heart);
    await waitFor(() => expect(heart.getAttribute('aria-pressed')).toBe('false'));
    refuse = true;
    fireEvent.click(heart);
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      'My list holds at most 500 items: remove one before saving another',
    );
    expect(heart.getAttribute('aria-pressed')).toBe('false');
  });

  it('shows visitors no heart', async () => {
    signedIn(false);
    stubFetch((url) => (url === '/api/me' ? json({}, 401) : json(vodDetail(4))));
    renderAt('/vod/vod-4');
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByRole('button', { name: /^Save / })).toBeNull();
  });

  function homeWith(list: SavedItem[]) {
    signedIn(true);
    const release = {
      type: 'video',
      key: 'clip-9',
      title: 'Harbour Lights',
      modelname: 'Model B2',
      date: '2026-11-20',
      thumbnail: '/t.jpg',
    };
    stubFetch((url) => {
      if (url === '/api/me') return json(MEMBER);
      if (url === '/api/saved') return json({ items: list, limit: 500 });
      if (url === '/api/saved/releases') return json({ items: [release] });
      if (url === '/api/positions') return json({ items: [] });
      return json([]);
    });
    renderAt('/');
  }

  it('shows home a row of the newest items of the saved models', async () => {
    homeWith(LIST);
    const row = await screen.findByRole('region', { name: 'New from your models' });
    expect(within(row).getByRole('link', { name: 'Harbour Lights' }).getAttribute('href')).toBe('/video/clip-9');
  });

  it('shows no such row without a saved model', async () => {
    homeWith(LIST.filter((i) => i.type !== 'model'));
    await screen.findByRole('region', { name: /^My list/ });
    expect(screen.queryByRole('region', { name: 'New from your models' })).toBeNull();
  });
});
