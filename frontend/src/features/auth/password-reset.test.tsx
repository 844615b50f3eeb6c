import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setSession } from '../../hooks/useSession';
import { json, renderAt, resetSession, stubFetch } from '../../test/render';

// Password reset by mail: "Forgot password?", the reset link's page, the e-mail section of /account and the
// e-mail confirmation link's page. The bff's rules are tested in bff (password-reset.test.ts,
// account/email.test.ts) and the whole journey in Chromium (tests/e2e/password-reset.test.ts).
const TOKEN = 'A'.repeat(43);
const MEMBER = { username: 'member_a', membership: { active: true, paidUntil: '2099-01-01' }, vods: [], mediaTokenSeconds: 300 };
const SENT = 'If an account matches, we have sent a link to its e-mail address. It works for one hour.';
const REFUSED = 'This reset link has expired or was already used. Ask for a new one.';

// The ALTCHA widget does not run in jsdom: the tests send the `verified` event it sends once solved.
vi.mock('./components/altchaWidget', () => ({}));

const bodyOf = (init: RequestInit | undefined) => JSON.parse(String(init?.body)) as Record<string, string>;
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const NEW_PASSWORD = 'New password (8 to 64 characters)';

/** Opens the page of a reset link carrying TOKEN, once its form shows. */
async function openResetLink() {
  renderAt(`/reset-password#token=${TOKEN}`);
  await screen.findByLabelText(NEW_PASSWORD);
}

/** Types the new password and its repetition (the same unless told), then presses Change password. */
function changePassword(password: string, again = password) {
  type(NEW_PASSWORD, password);
  type('New password again', again);
  fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
}

afterEach(resetSession);

describe('forgot password', () => {
  it('the sign-in page links to /forgot-password', async () => {
    stubFetch(() => json({ error: { code: 'unauthenticated', message: 'no' } }, 401));
    renderAt('/login');
    fireEvent.click(await screen.findByRole('link', { name: 'Forgot password?' }));
    expect(await screen.findByRole('heading', { name: 'Forgot your password?' })).toBeTruthy();
  });

  it('sends the trimmed username or e-mail and shows the one answer', async () => {
    const fetchMock = stubFetch((url) => (url === '/api/password-reset' ? json({ message: SENT }, 202) : json({}, 404)));
    renderAt('/forgot-password');
    type('Username or e-mail', ' someone@example.com ');
    fireEvent.click(await screen.findByRole('button', { name: 'Send the link' }));
    expect(await screen.findByText(SENT)).toBeTruthy();
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/password-reset');
    expect(bodyOf(call?.[1])).toEqual({ login: 'someone@example.com' });
  });

  it("past a budget, shows the sign-in's widget and sends again with its solution on its own; another request, a fresh one", async () => {
    const CHALLENGE = {
      error: {
        code: 'challenge_required',
        message: 'Too many reset requests for this name from new devices. Please confirm you are a person to continue.',
      },
    };
    const answers = [json(CHALLENGE, 403), json({ message: SENT }, 202), json({ message: SENT }, 202)];
    const fetchMock = stubFetch((url) => (url === '/api/password-reset' ? (answers.shift() ?? json({}, 500)) : json({}, 404)));
    const solve = async (payload: string) => {
      const widget = document.querySelector('altcha-widget');
      expect(widget?.getAttribute('challenge')).toBe('/api/login-challenge');
      await act(async () => {
        widget?.dispatchEvent(new CustomEvent('verified', { detail: { payload } }));
      });
    };
    renderAt('/forgot-password');
    type('Username or e-mail', 'member_a');
    expect(document.querySelector('altcha-widget')).toBeNull();
    fireEvent.click(await screen.findByRole('button', { name: 'Send the link' }));
    expect(await screen.findByText(/Please confirm you are a person to continue\./)).toBeTruthy();
    await solve('Zmlyc3Q=');
    expect(await screen.findByText(SENT)).toBeTruthy();
    await solve('c2Vjb25k');
    fireEvent.click(screen.getByRole('button', { name: 'Send the link' }));
    await vi.waitFor(() => expect(answers).toHaveLength(0));
    const sent = fetchMock.mock.calls.filter(([url]) => url === '/api/password-reset').map(([, init]) => bodyOf(init));
    expect(sent).toEqual([{ login: 'member_a' }, { login: 'member_a', altcha: 'Zmlyc3Q=' }, { login: 'member_a', altcha: 'c2Vjb25k' }]);
  });

  it('says when the address asked too often (429)', async () => {
    stubFetch(() => json({ error: { code: 'rate_limited', message: 'slow down' } }, 429));
    renderAt('/forgot-password');
    type('Username or e-mail', 'member_a');
    fireEvent.click(await screen.findByRole('button', { name: 'Send the link' }));
    expect(await screen.findByText('Too many attempts. Wait a minute and try again.')).toBeTruthy();
  });
});

describe('/reset-password', () => {
  it('without a token in the fragment: the refusal and a link to ask again', async () => {
    stubFetch(() => json({}, 404));
    renderAt('/reset-password');
    expect((await screen.findByRole('alert')).textContent).toContain(REFUSED);
    expect(screen.getByRole('link', { name: 'Ask for a new link' }).getAttribute('href')).toBe('/forgot-password');
  });

  it('asks for the password twice and checks 8 to 64 characters before sending', async () => {
    const fetchMock = stubFetch(() => json({}, 404));
    await openResetLink();
    changePassword('short');
    expect(await screen.findByText('The new password must be 8 to 64 characters.')).toBeTruthy();
    changePassword('brand new horse', 'brand new hors');
    expect(await screen.findByText('The two passwords differ.')).toBeTruthy();
    expect(fetchMock.mock.calls.filter(([url]) => url === '/api/password-reset/confirm')).toHaveLength(0);
  });

  it('sends the token with the new password, then says so and is signed in', async () => {
    const fetchMock = stubFetch((url) => (url === '/api/password-reset/confirm' ? json(MEMBER) : json(MEMBER)));
    await openResetLink();
    changePassword('brand new horse');
    expect(await screen.findByText('Your password was changed.')).toBeTruthy();
    expect(screen.getByText(/You are signed in as member_a/)).toBeTruthy();
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/password-reset/confirm');
    expect(bodyOf(call?.[1])).toEqual({ token: TOKEN, newPassword: 'brand new horse' });
    setSession({ status: 'unknown' });
  });

  it('an expired or used link: the message and a link to ask again', async () => {
    stubFetch(() => json({ error: { code: 'bad_request', message: REFUSED } }, 400));
    await openResetLink();
    changePassword('brand new horse');
    expect((await screen.findByRole('alert')).textContent).toContain(REFUSED);
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toBeTruthy();
  });
});

describe('e-mail address', () => {
  const ACCOUNT = { ...MEMBER, email: 'old@example.com', membership: { ...MEMBER.membership, renews: true }, vodItems: [] };

  it('/account shows the address and requests a change with the current password', async () => {
    setSession({ status: 'signedIn', member: MEMBER });
    const fetchMock = stubFetch((url) => {
      if (url === '/api/me') return json(MEMBER);
      if (url === '/api/account') return json(ACCOUNT);
      if (url === '/api/account/email') return json({ message: 'sent' }, 202);
      return json({ error: { code: 'not_found', message: 'unknown' } }, 404);
    });
    renderAt('/account');
    expect((await screen.findByTestId('account-email')).textContent).toBe('old@example.com');
    type('New e-mail address', 'new@example.com');
    type('Current password (to confirm)', 'correct horse');
    fireEvent.click(screen.getByRole('button', { name: 'Change e-mail' }));
    expect(await screen.findByText('We sent a confirmation link to new@example.com. Your address changes when you open it.')).toBeTruthy();
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/account/email');
    expect(bodyOf(call?.[1])).toEqual({ email: 'new@example.com', currentPassword: 'correct horse' });
  });

  it('a wrong current password says so', async () => {
    setSession({ status: 'signedIn', member: MEMBER });
    stubFetch((url) => {
      if (url === '/api/me') return json(MEMBER);
      if (url === '/api/account') return json(ACCOUNT);
      return json({ error: { code: 'forbidden', message: 'the current password is wrong' } }, 403);
    });
    renderAt('/account');
    await screen.findByTestId('account-email');
    type('New e-mail address', 'new@example.com');
    type('Current password (to confirm)', 'wrong one');
    fireEvent.click(screen.getByRole('button', { name: 'Change e-mail' }));
    expect(await screen.findByText('The current password is wrong.')).toBeTruthy();
  });

  it('/confirm-email confirms once on opening and names the new address', async () => {
    const fetchMock = stubFetch((url) => (url === '/api/account/email/confirm' ? json({ email: 'new@example.com' }) : json({}, 401)));
    renderAt(`/confirm-email#token=${TOKEN}`);
    expect(await screen.findByText('Your e-mail address is now new@example.com.')).toBeTruthy();
    const calls = fetchMock.mock.calls.filter(([url]) => url === '/api/account/email/confirm');
    expect(calls).toHaveLength(1);
    expect(bodyOf(calls[0]?.[1])).toEqual({ token: TOKEN });
  });

  it('/confirm-email with a used link says it expired or was used', async () => {
    stubFetch(() => json({ error: { code: 'bad_request', message: 'gone' } }, 400));
    renderAt(`/confirm-email#token=${TOKEN}`);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This confirmation link has expired or was already used. Ask for a new one from your account page.',
    );
  });
});
