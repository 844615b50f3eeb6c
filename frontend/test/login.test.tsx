import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { LoginPage } from '../src/features/auth/components/LoginPage';
import { setSession, useSession } from '../src/hooks/useSession';
import { json, never, stubFetch } from './render';

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
    [503, 'Error: HTTP error! status: 503'],
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
});
