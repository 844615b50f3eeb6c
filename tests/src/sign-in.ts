import { expect } from 'vitest';
import { DEMO_MEMBER } from '@media-site/ops';

/** Signs in through `/api/login` at `baseUrl` (the front door or the bff) and returns the session as a Cookie header value. */
export async function signInCookie(baseUrl: string, credentials: { username: string; password: string } = DEMO_MEMBER): Promise<string> {
  const login = await fetch(`${baseUrl}/api/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: baseUrl },
    body: JSON.stringify(credentials),
  });
  expect(login.status).toBe(200);
  return login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}
