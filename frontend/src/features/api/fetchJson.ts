export class HttpError extends Error {
  readonly status: number;

  constructor(status: number) {
    super(`HTTP error! status: ${status}`);
    this.name = 'HttpError';
    this.status = status;
  }
}

/** Issue 23: a hung backend used to give 31 s of "Loading..." and then a raw 503. */
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

// Reads that timed out in a row, across the app: the backoff before the next automatic try grows
// with it, and any answer resets it.
let timeoutsInARow = 0;
const BACKOFF_BASE_MS = 1000;
const BACKOFF_MAX_MS = 30_000;

/** How long to wait before asking again after a time-out: 1 s, 2 s, 4 s, ... up to 30 s. */
export function retryDelayMs(): number {
  return Math.min(BACKOFF_BASE_MS * 2 ** Math.max(0, timeoutsInARow - 1), BACKOFF_MAX_MS);
}

/** True while the last read timed out and none has been answered since (the loading text says so). */
export function isSlow(): boolean {
  return timeoutsInARow > 0;
}

/** For tests: forget earlier time-outs. */
export function resetSlow(): void {
  timeoutsInARow = 0;
}

const isRead = (init?: RequestInit) => (init?.method ?? 'GET').toUpperCase() === 'GET';

export async function fetchJson<T>(url: string, init?: RequestInit): Promise<T> {
  // Only reads get the time limit: a payment or a sign-in may legitimately take longer, and giving
  // up on one would not undo it.
  const timeout = isRead(init) ? AbortSignal.timeout(REQUEST_TIMEOUT_MS) : undefined;
  const signal = timeout && init?.signal ? AbortSignal.any([init.signal, timeout]) : (timeout ?? init?.signal);
  try {
    const response = await fetch(url, { ...init, signal, headers: { Accept: 'application/json', ...init?.headers } });
    timeoutsInARow = 0;
    if (!response.ok) throw new HttpError(response.status);
    return (await response.json()) as T;
  } catch (error) {
    // The caller's own abort stays an abort; only our limit (headers or body too slow) is a time-out.
    if (!(error instanceof HttpError) && timeout?.aborted && !init?.signal?.aborted) {
      timeoutsInARow += 1;
      throw new TimeoutError();
    }
    throw error;
  }
}

export function postJson<T>(url: string, body?: unknown, init?: RequestInit): Promise<T> {
  return fetchJson<T>(url, {
    ...init,
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...init?.headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}
