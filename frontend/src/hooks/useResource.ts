import { useEffect, useRef, useState } from 'react';

export type Resource<T> =
  | { status: 'loading' }
  | { status: 'error'; error: Error }
  | { status: 'success'; data: T };

// `key` identifies what is loaded (usually the URL); a new key starts over, an old answer is dropped.
export function useResource<T>(key: string, load: (signal: AbortSignal) => Promise<T>): Resource<T> {
  const loadRef = useRef(load);
  loadRef.current = load;
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
  }, [key]);

  return state.key === key ? state.resource : { status: 'loading' };
}

export function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
