import type { ErrorBody, ErrorCode } from '@media-site/contracts/errors';
import { takeEarlyAnswer } from '../../firstScreen/earlyAnswers';

/**
 * A non-2xx answer. `message` is spec §8's "HTTP error! status: {status}" whatever the server said;
 * the server's own `{ "error": { "code", "message" } }`, when it sent one, is in `code` and
 * `serverMessage` for the places that tell refusals apart or show the server's sentence.
 */
export class HttpError extends Error {
  readonly status: number;
  readonly code: ErrorCode | undefined;
  readonly serverMessage: string | undefined;

  constructor(status: number, answer?: ErrorBody['error']) {
    super(`HTTP error! status: ${status}`);
    this.name = 'HttpError';
    this.status = status;
    this.code = answer?.code;
    this.serverMessage = answer?.message;
  }
}

/** The HttpError for a non-2xx answer, with the server's code and message when its body is the error JSON. */
export async function httpError(response: Response): Promise<HttpError> {
  const body = (await response.json().catch(() => undefined)) as Partial<ErrorBody> | undefined;
  const answer = body?.error;
  const wellFormed = typeof answer?.code === 'string' && typeof answer.message === 'string';
  return new HttpError(response.status, wellFormed ? answer : undefined);
}

/** Shown while a read hangs: a hung backend used to give 31 s of "Loading..." and then a raw 503. */
export const SLOW_TEXT = 'The site is taking too long to answer. Trying again…';

// Longer than any catalog or account answer takes (milliseconds), shorter than a visitor waits.
// nginx gives up on the bff sooner (4 s) so its stored answer can still arrive in time.
export const REQUEST_TIMEOUT_MS = 8000;

/** A read that got no answer in REQUEST_TIMEOUT_MS: said in plain words, and asked again on its own. */
export class TimeoutError extends Error {
  constructor() {
    super(SLOW_TEXT);
    this.name = 'TimeoutError';
  }
}

// Reads in a row that got no real answer, across the app: time-outs, network failures and server
// errors (5xx, among them nginx's 502-504 while the bff is away). The backoff before the next
// automatic try grows with it; any real answer (below 500) resets it. `slow` says whether the last
// one was a time-out (the loading text says so).
let unansweredInARow = 0;
let slow = false;
const BACKOFF_BASE_MS = 1000;
const BACKOFF_MAX_MS = 30_000;

/** How long to wait before asking again after a read got no answer: 1 s, 2 s, 4 s, ... up to 30 s. */
export function retryDelayMs(): number {
  return Math.min(BACKOFF_BASE_MS * 2 ** Math.max(0, unansweredInARow - 1), BACKOFF_MAX_MS);
}

/** True while the last read timed out and none has been answered since (the loading text says so). */
export function isSlow(): boolean {
  return slow;
}

/** For tests: forget earlier time-outs and failures. */
export function resetSlow(): void {
  unansweredInARow = 0;
  slow = false;
}

function unanswered(timedOut: boolean): void {
  unansweredInARow += 1;
  slow = timedOut;
}

function answered(): void {
  unansweredInARow = 0;
  slow = false;
}

const isRead = (init?: RequestInit) => (init?.method ?? 'GET').toUpperCase() === 'GET';

export async function fetchJson<T>(url: string, init?: RequestInit): Promise<T> {
  // Only reads get the time limit: a payment or a sign-in may legitimately take longer, and giving
  // up on one would not undo it.
  const timeout = isRead(init) ? AbortSignal.timeout(REQUEST_TIMEOUT_MS) : undefined;
  const signal = timeout && init?.signal ? AbortSignal.any([init.signal, timeout]) : (timeout ?? init?.signal);
  try {
    const response = await fetch(url, { ...init, signal, headers: { Accept: 'application/json', ...init?.headers } });
    if (response.status >= 500) unanswered(false);
    else answered();
    if (!response.ok) throw await httpError(response);
    return (await response.json()) as T;
  } catch (error) {
    if (error instanceof HttpError) throw error;
    // The caller's own abort stays an abort; only our limit (headers or body too slow) is a time-out.
    if (timeout?.aborted && !init?.signal?.aborted) {
      unanswered(true);
      throw new TimeoutError();
    }
    if (!init?.signal?.aborted) unanswered(false);
    throw error;
  }
}

/**
 * A read the first screen may have started already (firstScreen/earlyAnswers.ts): its
 * answer when there is one, its time-out as this module's own, else asked here.
 */
export async function fetchJsonOrEarly<T>(url: string, init?: RequestInit): Promise<T> {
  const early = await takeEarlyAnswer(url);
  if (early.kind === 'answer') {
    answered();
    return early.body as T;
  }
  if (early.kind === 'timedOut') {
    unanswered(true);
    throw new TimeoutError();
  }
  return fetchJson<T>(url, init);
}

export function postJson<T>(url: string, body?: unknown, init?: RequestInit): Promise<T> {
  return fetchJson<T>(url, {
    ...init,
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...init?.headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}
