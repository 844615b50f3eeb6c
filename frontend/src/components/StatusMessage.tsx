import { useEffect } from 'react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { HttpError, isSlow, retryDelayMs, SLOW_TEXT, TimeoutError } from '../features/api/fetchJson';
import { useNoIndex } from '../hooks/useNoIndex';
import type { Resource } from '../hooks/useResource';

/** Spec §8's Loading..., or, while the site is not answering in time, the plain words for it. */
export function Loading() {
  return (
    <p className="status" role="status">
      {isSlow() ? SLOW_TEXT : 'Loading...'}
    </p>
  );
}

/** Beside an error no answer came with (a server error, a failed network): the page heals on its own. */
export const RETRYING_TEXT = 'The site is not answering right now. Trying again…';

/**
 * Another try on its own after the growing pause (1 s, 2 s, 4 s ... 30 s), so the page comes back by
 * itself when the site does. `failure` is the error being shown: a new one (the next try failed
 * too) arms the next try, even when the page never showed its loading state in between.
 */
export function useRetryAfterPause(onRetry: (() => void) | undefined, failure: unknown): void {
  useEffect(() => {
    if (!onRetry) return undefined;
    const timer = setTimeout(onRetry, retryDelayMs());
    return () => clearTimeout(timer);
  }, [onRetry, failure]);
}

/**
 * A read that timed out (a hung backend): plain words instead of an error code, and another try on
 * its own after a growing pause. "Try now" skips the wait.
 */
function SlowNotice({ error, onRetry }: { error: Error; onRetry?: () => void }) {
  useRetryAfterPause(onRetry, error);
  return (
    <div className="error-state">
      <p className="status" role="status">
        {SLOW_TEXT}
      </p>
      {onRetry && (
        <button type="button" className="button" onClick={onRetry}>
          Try now
        </button>
      )}
    </div>
  );
}

/**
 * Spec §8's "Error: HTTP error! status: 503" (or the network's own message) for a read that got no
 * real answer, the plain words for it, and another try on its own after a growing pause; Retry
 * skips the wait.
 */
function RetryingError({ error, onRetry }: { error: Error; onRetry: () => void }) {
  useRetryAfterPause(onRetry, error);
  return (
    <div className="error-state">
      <p className="status status-error" role="alert">
        Error: {error.message}
      </p>
      <p className="status" role="status">
        {RETRYING_TEXT}
      </p>
      <button type="button" className="button" onClick={onRetry}>
        Retry
      </button>
    </div>
  );
}

/**
 * Asking again can help only when the request never got a real answer: a network failure, a
 * time-out (status 0 or no status) or a server error (5xx). A 4xx is the answer; a Retry button
 * beside it would only get the same answer again.
 */
export function isRetryable(error: Error): boolean {
  if (!(error instanceof HttpError)) return true;
  return error.status === 0 || error.status >= 500;
}

/** A missing or taken-down item: the server said so (404, or 410 for gone). */
export function isUnavailable(error: Error): boolean {
  return error instanceof HttpError && (error.status === 404 || error.status === 410);
}

/**
 * Spec §8's "Error: {message}". Where asking again can help (see isRetryable) the page asks again on
 * its own, with a Retry button to skip the wait; a 4xx is the answer and stays.
 */
export function ErrorMessage({ error, onRetry }: { error: Error; onRetry?: () => void }) {
  if (error instanceof TimeoutError) return <SlowNotice error={error} onRetry={onRetry} />;
  if (onRetry && isRetryable(error)) return <RetryingError error={error} onRetry={onRetry} />;
  return (
    <p className="status status-error" role="alert">
      Error: {error.message}
    </p>
  );
}

/** Where a detail page's "isn't available" card leads back to: the listing the item belongs to. */
export interface BackLink {
  to: string;
  label: string;
}

/**
 * The one card every detail page (video, photo set, photo viewer, VOD, model) shows for an item
 * that is missing or taken down: what happened and a way back, never a Retry (it would not help).
 */
export function UnavailableCard({ back, detail }: { back: BackLink; detail?: string }) {
  useNoIndex();
  return (
    <section className="notice-card" aria-labelledby="unavailable-title">
      <h1 id="unavailable-title">This item isn&apos;t available</h1>
      <p>{detail ?? 'It may have been taken down, or the address may be wrong.'}</p>
      <p className="button-row">
        <Link className="button button-primary" to={back.to}>
          {back.label}
        </Link>
        <Link className="button" to="/">
          Home
        </Link>
      </p>
    </section>
  );
}

/** A detail page's error: the "isn't available" card for a missing item, else spec §8's message. */
export function DetailError({ error, onRetry, back, detail }: { error: Error; onRetry?: () => void; back: BackLink; detail?: string }) {
  if (isUnavailable(error)) return <UnavailableCard back={back} detail={detail} />;
  return <ErrorMessage error={error} onRetry={onRetry} />;
}

// Renders the loading and error states of spec §8, or the children once the data is there. With
// `back` (detail pages), a missing item shows the "isn't available" card instead.
export function ResourceView<T>({
  resource,
  back,
  children,
}: {
  resource: Resource<T> & { retry?: () => void };
  back?: BackLink;
  children: (data: T) => ReactNode;
}) {
  if (resource.status === 'loading') return <Loading />;
  if (resource.status === 'error') {
    return back ? (
      <DetailError error={resource.error} onRetry={resource.retry} back={back} />
    ) : (
      <ErrorMessage error={resource.error} onRetry={resource.retry} />
    );
  }
  return <>{children(resource.data)}</>;
}
