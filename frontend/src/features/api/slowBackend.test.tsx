import { act, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorMessage, Loading } from '../../components/StatusMessage';
import { fetchJson, HttpError, postJson, REQUEST_TIMEOUT_MS, resetSlow, retryDelayMs, SLOW_TEXT, TimeoutError } from './fetchJson';
import { DECLINED_DETAIL, DECLINED_SAID_DETAIL, FAILED_DETAIL, failureDetail } from '../payment/chain';
import { json, stubFetch } from '../../test/render';

// A fetch that waits until its signal aborts, as a hung backend's does.
const hang = (_url: string, init?: RequestInit) =>
  new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason as Error)));

/** Stands in for AbortSignal.timeout: `fire()` is the 8 s passing. */
function controlledTimeout() {
  const controller = new AbortController();
  const spy = vi.spyOn(AbortSignal, 'timeout').mockImplementation(() => controller.signal);
  return { spy, fire: () => controller.abort(new DOMException('timed out', 'TimeoutError')) };
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
  resetSlow();
});

describe('fetchJson and a hung backend', () => {
  it(`gives up on a read after ${REQUEST_TIMEOUT_MS} ms with the plain words`, async () => {
    const timeout = controlledTimeout();
    stubFetch(hang);
    const read = fetchJson('/api/photos/1', { signal: new AbortController().signal });
    timeout.fire();
    await expect(read).rejects.toThrow(TimeoutError);
    await expect(read).rejects.toThrow(SLOW_TEXT);
    expect(timeout.spy).toHaveBeenCalledWith(REQUEST_TIMEOUT_MS);
  });

  it("keeps the caller's own abort an abort, not a time-out", async () => {
    controlledTimeout();
    stubFetch(hang);
    const caller = new AbortController();
    const read = fetchJson('/api/photos/1', { signal: caller.signal });
    caller.abort();
    await expect(read).rejects.not.toBeInstanceOf(TimeoutError);
    expect(retryDelayMs()).toBe(1000);
  });

  it('puts no time limit on a write (a payment may take longer, and giving up would not undo it)', async () => {
    const timeout = controlledTimeout();
    stubFetch(() => json({ ok: true }));
    await postJson('/api/process_payment', {});
    expect(timeout.spy).not.toHaveBeenCalled();
  });

  it('waits 1 s, 2 s, 4 s ... at most 30 s between automatic tries, and starts over after an answer below 500', async () => {
    stubFetch(hang);
    const delays = [];
    for (let i = 0; i < 7; i += 1) {
      const timeout = controlledTimeout();
      const read = fetchJson('/api/photos/1');
      timeout.fire();
      await read.catch(() => {});
      delays.push(retryDelayMs());
      vi.restoreAllMocks();
    }
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
    // A server error is no answer either: the pause keeps its length. Any answer below 500 starts over.
    stubFetch(() => json({ error: 'x' }, 503));
    await expect(fetchJson('/api/photos/1')).rejects.toThrow(HttpError);
    expect(retryDelayMs()).toBe(30_000);
    stubFetch(() => json({ error: 'x' }, 404));
    await expect(fetchJson('/api/photos/1')).rejects.toThrow(HttpError);
    expect(retryDelayMs()).toBe(1000);
  });

  it('shows the plain words instead of an error code and asks again by itself after the backoff', async () => {
    vi.useFakeTimers();
    const onRetry = vi.fn();
    render(
      <MemoryRouter>
        <ErrorMessage error={new TimeoutError()} onRetry={onRetry} />
      </MemoryRouter>,
    );
    expect(screen.getByText(SLOW_TEXT)).toBeTruthy();
    expect(screen.queryByText(/^Error:/)).toBeNull();
    act(() => vi.advanceTimersByTime(retryDelayMs() - 1));
    expect(onRetry).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('says "Loading..." normally and the plain words while the site is slow', async () => {
    const { rerender } = render(<Loading />);
    expect(screen.getByText('Loading...')).toBeTruthy();
    const timeout = controlledTimeout();
    stubFetch(hang);
    const read = fetchJson('/api/photos/1');
    timeout.fire();
    await read.catch(() => {});
    rerender(<Loading key="again" />);
    expect(screen.getByText(SLOW_TEXT)).toBeTruthy();
  });
});

describe('a declined card in plain words', () => {
  it('says declined, nothing charged and what to try; with the processor reason (at most 200 characters), that and advice that fits it', () => {
    expect(failureDetail({ approved: false, status: 'declined' })).toEqual([DECLINED_DETAIL]);
    expect(failureDetail({ approved: false, status: 'declined', declineText: ' Insufficient funds ' })).toEqual([
      'The card processor did not approve the charge. It said: “Insufficient funds”',
      DECLINED_SAID_DETAIL,
    ]);
    // A processor's failure is not called a declined card (one message that does not contradict itself).
    const system = failureDetail({ approved: false, status: 'declined', declineText: '27 System Error, Please Try Again' });
    expect(system.join(' ')).not.toMatch(/declined/i);
    expect(system.join(' ')).toContain('Try again in a moment');
    const long = failureDetail({ approved: false, status: 'declined', declineText: 'x'.repeat(500) })[0] ?? '';
    expect(long).toBe(`The card processor did not approve the charge. It said: “${'x'.repeat(200)}”`);
    expect(failureDetail({ approved: false, status: 'failed' })).toEqual([FAILED_DETAIL]);
    expect(failureDetail(null)).toEqual([]);
  });
});
