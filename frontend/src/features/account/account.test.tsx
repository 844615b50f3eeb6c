import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { setSession } from '../../hooks/useSession';
import { json, renderAt, stubFetch } from '../../test/render';

// A bought VOD that was taken down is listed as removed on /account: no title, no
// download button (the bff signs no link for it); a link asked for one anyway says it was removed.
const MEMBER = {
  username: 'member_a',
  membership: { active: true, paidUntil: '2099-01-01' },
  vods: ['vod-one', 'vod-two'],
  mediaTokenSeconds: 300,
};
const ACCOUNT = {
  ...MEMBER,
  membership: { ...MEMBER.membership, renews: true },
  vodItems: [{ path: 'vod-one', updatename: 'VOD one', download: '/members/vod/vod-one/vod one.mp4' }, { removed: true }],
};

afterEach(() => setSession({ status: 'unknown' }));

describe('/account', () => {
  it("shows a taken-down VOD as Removed, with no download button; a removed item's link says so", async () => {
    setSession({ status: 'signedIn', member: MEMBER });
    stubFetch((url) => {
      if (url === '/api/me') return json(MEMBER);
      if (url === '/api/account') return json(ACCOUNT);
      if (url.startsWith('/api/download-link')) return json({ error: { code: 'not_found', message: 'this item has been removed' } }, 404);
      return json({ error: { code: 'not_found', message: 'unknown' } }, 404);
    });
    renderAt('/account');
    expect(await screen.findByRole('link', { name: 'VOD one' })).toBeTruthy();
    expect(screen.getByText('Removed')).toBeTruthy();
    const buttons = screen.getAllByRole('button', { name: /^Download/ });
    expect(buttons.map((b) => b.textContent)).toEqual(['Download VOD one']);
    expect(screen.queryByText(/vod-two/)).toBeNull();

    // Taken down after the page loaded: the bff refuses the link with 404.
    fireEvent.click(buttons[0]!);
    expect((await screen.findByRole('alert')).textContent).toBe('This item has been removed from the site.');
  });
});
