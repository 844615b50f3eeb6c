import type { MessageAnswer } from '@media-site/contracts/member-api';
import { HttpError, postJson } from '../../api/fetchJson';
import type { Member } from '../../../hooks/useSession';
import { ChallengeRequiredError } from './signIn';

/**
 * POSTs JSON; a refusal is an HttpError with the server's own sentence (a reset link that expired
 * or was used: one message for both) in `serverMessage`.
 */
export function postForAnswer<T>(url: string, body: unknown): Promise<T> {
  return postJson<T>(url, body, { credentials: 'same-origin' });
}

/**
 * The same answer whether or not an account matches (the server never says). Past a budget of the
 * name or of this address the server wants the sign-in's proof of work (`altcha`, the widget's
 * payload, each works once): ChallengeRequiredError.
 */
export async function requestPasswordReset(login: string, altcha?: string): Promise<string> {
  try {
    return (await postForAnswer<MessageAnswer>('/api/password-reset', { login, ...(altcha === undefined ? {} : { altcha }) })).message;
  } catch (error) {
    if (error instanceof HttpError && error.code === 'challenge_required') throw new ChallengeRequiredError(error.serverMessage ?? '');
    throw error;
  }
}

/** Sets the new password with the link's token; the answer signs this browser in (cookies) and is the member. */
export function confirmPasswordReset(token: string, newPassword: string): Promise<Member> {
  return postForAnswer<Member>('/api/password-reset/confirm', { token, newPassword });
}

/** The token of a link `…#token=…` (the fragment never reaches a server log or a Referer). */
export function tokenFromHash(hash: string): string {
  return new URLSearchParams(hash.replace(/^#/, '')).get('token') ?? '';
}
