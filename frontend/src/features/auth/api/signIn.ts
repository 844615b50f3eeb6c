import { httpError } from '../../api/fetchJson';
import type { Member } from '../../../hooks/useSession';

/**
 * The account's sign-in budget is spent (bff/src/routes/api/auth/limits.ts): the server wants a
 * solved proof-of-work challenge with the next attempt. Not a lockout: the widget solves one in
 * about a second.
 */
export class ChallengeRequiredError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChallengeRequiredError';
  }
}

/** `altcha`: the widget's payload, once the server asked for one (each works once). */
export async function signIn(username: string, password: string, altcha?: string): Promise<Member> {
  const response = await fetch('/api/login', {
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password, ...(altcha === undefined ? {} : { altcha }) }),
  });
  if (response.ok) return (await response.json()) as Member;
  const error = await httpError(response);
  // 403 is also a disabled account: only the code tells them apart.
  if (error.code === 'challenge_required') throw new ChallengeRequiredError(error.serverMessage ?? '');
  throw error;
}
