import { act, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LoginPage } from './components/LoginPage';
import { setSession, useSession } from '../../hooks/useSession';
import { json, never, stubFetch } from '../../test/render';

// The widget itself (a web component with workers) does not run in jsdom: the tests play its part
// by sending the `verified` event it sends once solved.
vi.mock('./components/altchaWidget', () => ({}));

const MEMBER = { username: 'member_a', membership: { active: true, paidUntil: '2099-01-01' }, vods: [], mediaTokenSeconds: 300 };

function Landing() {
  const session = useSession();
  return <p>landed as {session.status === 'signedIn' ? session.member.username : 'nobody'}</p>;
}

function renderLogin(path = '/login') {
  const view = render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/login" element={<LoginPage />} />
        <Route path="/" element={<Landing />} />
        <Route path="/videos" element={<Landing />} />
      </Routes>
    </MemoryRouter>,
  );
  fireEvent.change(screen.getByLabelText('Username'), { target: { value: ' member_a ' } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'correct horse' } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
  return view;
}

afterEach(() => setSession({ status: 'unknown' }));

describe('sign-in page', () => {
  it('shows that it is working and cannot be submitted twice while the answer is pending', async () => {
    const fetchMock = stubFetch(never);
    renderLogin();
    const button = await screen.findByRole('button', { name: 'Signing in...' });
    expect(button).toHaveProperty('disabled', true);
    fireEvent.click(button);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it.each([
    [401, 'Wrong username or password.'],
    [429, 'Too many attempts. Wait a minute and try again.'],
    [403, 'This account has been disabled. Contact support.'],
    [503, 'The server is busy. Try again in a moment.'],
    [500, 'Error: HTTP error! status: 500'],
  ])('explains a %i and lets the member try again', async (status, message) => {
    stubFetch(() => json({ error: { code: 'x', message: 'no' } }, status));
    renderLogin();
    expect(await screen.findByText(message)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign in' })).toHaveProperty('disabled', false);
  });

  it('signs in with the trimmed username, stores the session and goes to ?next', async () => {
    const fetchMock = stubFetch(() => json(MEMBER));
    renderLogin('/login?next=/videos');
    expect(await screen.findByText('landed as member_a')).toBeTruthy();
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/login');
    expect(JSON.parse(String(init?.body))).toEqual({ username: 'member_a', password: 'correct horse' });
  });

  it('never follows ?next off the site', async () => {
    stubFetch(() => json(MEMBER));
    renderLogin('/login?next=//evil.example/x');
    expect(await screen.findByText('landed as member_a')).toBeTruthy();
  });

  describe('past the account budget (a proof of work, not a lockout)', () => {
    const CHALLENGE = {
      error: {
        code: 'challenge_required',
        message: 'Too many sign-in attempts for this account from new devices. Please confirm you are a person to continue.',
      },
    };
    const bodies = (fetchMock: ReturnType<typeof stubFetch>) =>
      fetchMock.mock.calls.map(([, init]) => JSON.parse(String(init?.body)) as Record<string, string>);
    const solve = async (payload: string) => {
      const widget = document.querySelector('altcha-widget');
      expect(widget).not.toBeNull();
      await act(async () => {
        widget?.dispatchEvent(new CustomEvent('verified', { detail: { payload } }));
      });
    };

    it('shows the widget only when asked, then signs in with its solution on its own', async () => {
      const answers = [json(CHALLENGE, 403), json(MEMBER)];
      const fetchMock = stubFetch(() => answers.shift() ?? json({}, 500));
      renderLogin();
      expect(document.querySelector('altcha-widget')).toBeNull();
      expect(await screen.findByText(/Please confirm you are a person to continue\./)).toBeTruthy();
      const widget = document.querySelector('altcha-widget');
      expect(widget?.getAttribute('challenge')).toBe('/api/login-challenge');
      expect(widget?.getAttribute('auto')).toBe('onload');
      await solve('c29sdmVk');
      expect(await screen.findByText('landed as member_a')).toBeTruthy();
      expect(bodies(fetchMock)).toEqual([
        { username: 'member_a', password: 'correct horse' },
        { username: 'member_a', password: 'correct horse', altcha: 'c29sdmVk' },
      ]);
    });

    it('after a wrong password, waits for the member and sends a fresh solution', async () => {
      const answers = [json(CHALLENGE, 403), json({ error: { code: 'unauthenticated', message: 'no' } }, 401), json(MEMBER)];
      const fetchMock = stubFetch(() => answers.shift() ?? json({}, 500));
      renderLogin();
      await screen.findByText(/Please confirm you are a person/);
      await solve('Zmlyc3Q=');
      expect(await screen.findByText('Wrong username or password.')).toBeTruthy();
      // A new widget for a new challenge; solving it does not resend the wrong password by itself.
      await solve('c2Vjb25k');
      expect(fetchMock).toHaveBeenCalledTimes(2);
      fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'correct horse 2' } });
      fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
      expect(await screen.findByText('landed as member_a')).toBeTruthy();
      expect(bodies(fetchMock).map((b) => b.altcha)).toEqual([undefined, 'Zmlyc3Q=', 'c2Vjb25k']);
    });

    it('tells a disabled account (also a 403) from a challenge', async () => {
      stubFetch(() => json({ error: { code: 'forbidden', message: 'disabled' } }, 403));
      renderLogin();
      expect(await screen.findByText('This account has been disabled. Contact support.')).toBeTruthy();
      expect(document.querySelector('altcha-widget')).toBeNull();
    });
  });
});
