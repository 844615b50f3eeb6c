import { HttpError } from '../../api/fetchJson';
import type { Member } from '../../../hooks/useSession';

/** A refusal with the server's own sentence (a reset link that expired or was used: one message for both). */
export class AnswerError extends HttpError {
  readonly text: string;

  constructor(status: number, text: string) {
    super(status);
    this.text = text;
  }
}

/** POSTs JSON; a non-2xx answer throws AnswerError carrying the server's message when it gave one. */
export async function postForAnswer<T>(url: string, body: unknown): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    credentials: 'same-origin',
    body: JSON.stringify(body),
  });
  const answer = (await response.json().catch(() => undefined)) as { error?: { message?: string } } | undefined;
  if (!response.ok) throw new AnswerError(response.status, answer?.error?.message ?? '');
  return answer as T;
}

/** The same answer whether or not an account matches (the server never says). */
export async function requestPasswordReset(login: string): Promise<string> {
  return (await postForAnswer<{ message: string }>('/api/password-reset', { login })).message;
}

/** Sets the new password with the link's token; the answer signs this browser in (cookies) and is the member. */
export function confirmPasswordReset(token: string, newPassword: string): Promise<Member> {
  return postForAnswer<Member>('/api/password-reset/confirm', { token, newPassword });
}

/** The token of a link `…#token=…` (the fragment never reaches a server log or a Referer). */
export function tokenFromHash(hash: string): string {
  return new URLSearchParams(hash.replace(/^#/, '')).get('token') ?? '';
}
