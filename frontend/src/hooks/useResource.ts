import { useCallback, useEffect, useRef, useState } from 'react';

export type Resource<T> = { status: 'loading' } | { status: 'error'; error: Error } | { status: 'success'; data: T };

/** A resource plus `retry`, which asks again (after an error) without reloading the page. */
export type RetryableResource<T> = Resource<T> & { retry: () => void };

// `key` identifies what is loaded (usually the URL); a new key starts over, an old answer is dropped.
export function useResource<T>(key: string, load: (signal: AbortSignal) => Promise<T>): RetryableResource<T> {
  const loadRef = useRef(load);
  loadRef.current = load;
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<{ key: string; resource: Resource<T> }>({ key, resource: { status: 'loading' } });

  useEffect(() => {
    const controller = new AbortController();
    setState({ key, resource: { status: 'loading' } });
    loadRef.current(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ key, resource: { status: 'success', data } });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ key, resource: { status: 'error', error: toError(error) } });
      },
    );
    return () => controller.abort();
  }, [key, attempt]);

  const retry = useCallback(() => setAttempt((count) => count + 1), []);
  const resource: Resource<T> = state.key === key ? state.resource : { status: 'loading' };
  return { ...resource, retry };
}

export function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
