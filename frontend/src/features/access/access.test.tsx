import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { safeNext } from '../auth/next';
import { vodDetail } from '../../test/fixtures';
import { json, renderAt, resetSession, signedIn, stubFetch } from '../../test/render';

const member = (vods: string[] = []) => ({
  username: 'member_a',
  membership: { active: true, paidUntil: '2099-01-01' },
  vods,
  mediaTokenSeconds: 300,
});

afterEach(resetSession);

describe('sign-in next', () => {
  it('keeps same-site paths and sends anything else home', () => {
    expect(safeNext('/vod/a%20b?x=1#t')).toBe('/vod/a%20b?x=1#t');
    for (const bad of [
      null,
      '',
      'vod',
      '//evil.example/x',
      '/\\evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
      '/\tx',
      '/login?next=/x',
    ]) {
      expect(safeNext(bad)).toBe('/');
    }
  });
});

describe('/vod/{folder} for members', () => {
  it('offers a member without the VOD Buy for the price through /ccbill', async () => {
    signedIn(true);
    stubFetch((url) => (url === '/api/me' ? json(member()) : json(vodDetail(4))));
    renderAt('/vod/vod-4');
    const buy = await screen.findByRole('link', { name: 'Buy for $24.99' });
    expect(buy.getAttribute('href')).toBe('/ccbill?vod=vod-4');
    expect(screen.queryByRole('button', { name: 'Owned – Download' })).toBeNull();
    // Members see Account where visitors see Join.
    expect(screen.getByRole('link', { name: 'Account' }).getAttribute('href')).toBe('/account');
    expect(screen.queryByRole('link', { name: 'Join' })).toBeNull();
  });

  it('shows the owner Owned – Download, which asks for a signed link, and no Buy', async () => {
    signedIn(true);
    const asked: string[] = [];
    stubFetch((url) => {
      asked.push(url);
      if (url === '/api/me') return json(member(['vod-4']));
      if (url.startsWith('/api/download-link'))
        return json({ url: '/members/vod/vod-4/vod-4.mp4?exp=1&sig=x', expiresAt: '2099-01-01T00:00:00Z' });
      return json(vodDetail(4));
    });
    renderAt('/vod/vod-4');
    const download = await screen.findByRole('button', { name: 'Owned – Download' });
    expect(screen.queryByRole('link', { name: /^Buy for/ })).toBeNull();
    fireEvent.click(download);
    await waitFor(() => expect(asked).toContain(`/api/download-link?path=${encodeURIComponent('/members/vod/vod-4/vod-4.mp4')}`));
  });
});
