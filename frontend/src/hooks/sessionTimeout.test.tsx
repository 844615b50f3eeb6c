import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SESSION_CHECK_TIMEOUT_MS } from './useSession';
import { json, renderAt, resetSession, signedIn, stubFetch } from '../test/render';

const MEMBER = {
  username: 'member_a',
  membership: { active: true, paidUntil: '2099-01-01' },
  vods: [] as string[],
  mediaTokenSeconds: 300,
};
const OUTAGE = "We can't reach the site right now. Your session is still there; try again in a moment.";

afterEach(() => {
  resetSession();
  vi.restoreAllMocks();
});

/** A bff that takes the request and never answers: the fetch ends only when its signal aborts. */
function hungUntilAborted(_url: string, init?: RequestInit): Promise<Response> {
  return new Promise((_resolve, reject) => {
    init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
  });
}

describe('a bff that never answers /api/me', () => {
  it(`gives up after ${SESSION_CHECK_TIMEOUT_MS / 1000} s and shows the outage notice, not the sign-in form`, async () => {
    expect(SESSION_CHECK_TIMEOUT_MS).toBe(8000);
    // The time limit's signal, fired by the test instead of 8 real seconds.
    const limits: Array<{ ms: number; fire: () => void }> = [];
    vi.spyOn(AbortSignal, 'timeout').mockImplementation((ms) => {
      const controller = new AbortController();
      limits.push({ ms, fire: () => controller.abort(new DOMException('signal timed out', 'TimeoutError')) });
      return controller.signal;
    });
    signedIn(true);
    const fetchMock = stubFetch((url, init) => (url === '/api/me' ? hungUntilAborted(url, init) : json([])));
    renderAt('/account');
    await vi.waitFor(() => expect(limits).toHaveLength(1), { timeout: 5000 });
    expect(limits[0]!.ms).toBe(SESSION_CHECK_TIMEOUT_MS);
    const meCall = fetchMock.mock.calls.find(([input]) => String(input) === '/api/me');
    expect(meCall?.[1]?.signal).toBeInstanceOf(AbortSignal);
    expect(screen.queryByText(OUTAGE)).toBeNull();
    limits[0]!.fire();
    expect(await screen.findByText(OUTAGE)).toBeTruthy();
    expect(screen.queryByLabelText('Password')).toBeNull();
  });

  it('an answer within the limit signs the member in as before', async () => {
    signedIn(true);
    stubFetch((url) =>
      url === '/api/me'
        ? json(MEMBER)
        : url === '/api/account'
          ? json({ ...MEMBER, membership: { ...MEMBER.membership, renews: true }, vodItems: [] })
          : json([]),
    );
    renderAt('/account');
    expect(await screen.findByTestId('membership-status')).toBeTruthy();
    expect(screen.queryByText(OUTAGE)).toBeNull();
  });
});
