import type { ReactNode } from 'react';
import type { Resource } from '../hooks/useResource';

export function Loading() {
  return <p className="status" role="status">Loading...</p>;
}

export function ErrorMessage({ error }: { error: Error }) {
  return <p className="status status-error" role="alert">Error: {error.message}</p>;
}

// Renders the loading and error states of spec §8, or the children once the data is there.
export function ResourceView<T>({ resource, children }: { resource: Resource<T>; children: (data: T) => ReactNode }) {
  if (resource.status === 'loading') return <Loading />;
  if (resource.status === 'error') return <ErrorMessage error={resource.error} />;
  return <>{children(resource.data)}</>;
}
