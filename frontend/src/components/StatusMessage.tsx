import type { ReactNode } from 'react';
import type { Resource } from '../hooks/useResource';

export function Loading() {
  return <p className="status" role="status">Loading...</p>;
}

/** Spec §8's "Error: {message}", with a Retry button where the request can be made again. */
export function ErrorMessage({ error, onRetry }: { error: Error; onRetry?: () => void }) {
  const message = <p className="status status-error" role="alert">Error: {error.message}</p>;
  if (!onRetry) return message;
  return (
    <div className="error-state">
      {message}
      <button type="button" className="button" onClick={onRetry}>
        Retry
      </button>
    </div>
  );
}

// Renders the loading and error states of spec §8, or the children once the data is there.
export function ResourceView<T>({ resource, children }: { resource: Resource<T> & { retry?: () => void }; children: (data: T) => ReactNode }) {
  if (resource.status === 'loading') return <Loading />;
  if (resource.status === 'error') return <ErrorMessage error={resource.error} onRetry={resource.retry} />;
  return <>{children(resource.data)}</>;
}
