import { useCallback, useEffect, useRef, useState } from 'react';
import { toError } from './useResource';

export interface InfinitePages<T> {
  items: T[];
  pagesLoaded: number;
  loading: boolean;
  error: Error | null;
  done: boolean;
  loadMore: () => void;
}

// Pages 1..n of a listing; a short page means the end. `initialPages` > 1 reloads what a visitor had
// already scrolled through, so a saved scroll position can be restored.
export function useInfinitePages<T>(
  load: (page: number, signal: AbortSignal) => Promise<T[]>,
  pageSize: number,
  initialPages = 1,
): InfinitePages<T> {
  const loadRef = useRef(load);
  loadRef.current = load;
  const [pages, setPages] = useState<T[][]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<Error | null>(null);
  const busy = useRef(false);
  const controller = useRef<AbortController | null>(null);
  const done = pages.length > 0 && (pages[pages.length - 1]?.length ?? 0) < pageSize;

  const fetchPages = useCallback(async (from: number, to: number) => {
    busy.current = true;
    setLoading(true);
    const signal = controller.current?.signal ?? new AbortController().signal;
    try {
      for (let page = from; page <= to; page += 1) {
        const rows = await loadRef.current(page, signal);
        if (signal.aborted) return;
        setPages((previous) => [...previous.slice(0, page - 1), rows]);
        if (rows.length < pageSize) break;
      }
    } catch (caught) {
      if (!signal.aborted) setError(toError(caught));
    } finally {
      if (!signal.aborted) {
        busy.current = false;
        setLoading(false);
      }
    }
  }, [pageSize]);

  useEffect(() => {
    controller.current = new AbortController();
    void fetchPages(1, Math.max(1, initialPages));
    return () => {
      controller.current?.abort();
      busy.current = false;
    };
  }, [fetchPages, initialPages]);

  const loadMore = useCallback(() => {
    if (busy.current || done || error) return;
    void fetchPages(pages.length + 1, pages.length + 1);
  }, [done, error, fetchPages, pages.length]);

  return { items: pages.flat(), pagesLoaded: pages.length, loading, error, done, loadMore };
}
