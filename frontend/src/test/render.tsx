import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { vi } from 'vitest';
import type { SiteStatus } from '@media-site/contracts/site-status';
import { AppRoutes } from '../app/routes';
import { AGE_CONFIRMED_KEY } from '../features/age-gate/components/AgeGate';
import { setSession } from '../hooks/useSession';
import { resetSlow } from '../features/api/fetchJson';
import { resetSaved } from '../features/saved/store';

export function renderAt(path: string, { ageConfirmed = true } = {}) {
  if (ageConfirmed) window.localStorage.setItem(AGE_CONFIRMED_KEY, 'true');
  return render(
    <MemoryRouter initialEntries={[path]}>
      <AppRoutes />
    </MemoryRouter>,
  );
}

/** The SPA's `signed_in` hint cookie (the session cookie itself is HttpOnly). */
export function signedIn(on: boolean): void {
  document.cookie = on ? 'signed_in=1; path=/' : 'signed_in=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT';
}

/** For afterEach: signed out, the session unknown again, back at /. */
export function resetSession(): void {
  // Earlier failures grow the pause before the next automatic try: each test starts from none.
  resetSlow();
  signedIn(false);
  setSession({ status: 'unknown' });
  resetSaved();
  window.history.replaceState({}, '', '/');
}

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

type Handler = (url: string, init?: RequestInit) => Response | Promise<Response>;

// fetch is the browser's boundary: component tests answer it here, e2e tests use the real services.
// Every page asks GET /api/site for the maintenance banner: answered here (not in maintenance,
// unless a test sets `siteStatus.maintenance`) and kept out of the mock's calls, so the tests count
// and answer only what they are about.
export const siteStatus: SiteStatus = { maintenance: null };

export function stubFetch(handler: Handler) {
  const fetchMock = vi.fn((input: RequestInfo | URL, init?: RequestInit) => Promise.resolve(handler(String(input), init)));
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) =>
    String(input) === '/api/site' ? Promise.resolve(json(siteStatus)) : fetchMock(input, init),
  );
  return fetchMock;
}

export function stubFetchRoutes(routes: Record<string, unknown>) {
  return stubFetch((url) => (url in routes ? json(routes[url]) : json({ error: { code: 'not_found', message: 'unknown' } }, 404)));
}

export const never = () => new Promise<Response>(() => {});

export function calledUrls(fetchMock: ReturnType<typeof stubFetch>): string[] {
  return fetchMock.mock.calls.map(([input]) => String(input));
}
