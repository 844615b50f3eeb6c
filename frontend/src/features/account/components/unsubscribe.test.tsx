import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { json, renderAt, resetSession, stubFetch } from '../../../test/render';
import { UNSUBSCRIBE_LINK_UNKNOWN } from './UnsubscribePage';

const TOKEN = 'A'.repeat(43);

afterEach(resetSession);

describe("/unsubscribe (a release mail's link)", () => {
  it('stops nothing on opening; the button sends the one-click POST and the page says so', async () => {
    const fetchMock = stubFetch((_url, init) =>
      init?.method === 'POST'
        ? json({ message: 'Release mails are off for member_a. You can switch them on again on your account page.' })
        : json({}, 401),
    );
    renderAt(`/unsubscribe#token=${TOKEN}`);
    const button = await screen.findByRole('button', { name: 'Stop release mails' });
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST')).toEqual([]);
    fireEvent.click(button);
    expect(await screen.findByText(/^Release mails are off for member_a\./)).toBeTruthy();
    const [url, init] = fetchMock.mock.calls.find(([, i]) => i?.method === 'POST')!;
    expect(String(url)).toBe(`/api/mail/unsubscribe?token=${TOKEN}`);
    expect(init?.body).toBe('List-Unsubscribe=One-Click');
    expect(init?.credentials).toBe('omit');
  });

  it('says what to do when the link is not known, or has no token', async () => {
    stubFetch((_url, init) =>
      init?.method === 'POST' ? json({ error: { code: 'not_found', message: 'this unsubscribe link is not known' } }, 404) : json({}, 401),
    );
    renderAt(`/unsubscribe#token=${TOKEN}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Stop release mails' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(UNSUBSCRIBE_LINK_UNKNOWN));
  });

  it('has nothing to press without a token', async () => {
    stubFetch(() => json({}, 401));
    renderAt('/unsubscribe');
    expect((await screen.findByRole('alert')).textContent).toBe(UNSUBSCRIBE_LINK_UNKNOWN);
    expect(screen.queryByRole('button', { name: 'Stop release mails' })).toBeNull();
  });
});
