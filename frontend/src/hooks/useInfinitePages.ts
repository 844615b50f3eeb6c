import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { entryKey, rememberedPages, rememberPages } from './historyMemory';
import { toError } from './useResource';

export interface InfinitePages<T> {
  items: T[];
  pagesLoaded: number;
  loading: boolean;
  error: Error | null;
  done: boolean;
  loadMore: () => void;
  /** Asks again for the page that failed, keeping the pages already shown. */
  retry: () => void;
}

/**
 * Pages 1..n of a listing; a short page means the end. The loaded pages are remembered for this
 * history entry: Back shows them again at once (after a reload, pages 1..n are fetched again), so
 * the scroll position can be restored. `listing` tells two listings on one page apart.
 */
export function useInfinitePages<T>(
  load: (page: number, signal: AbortSignal) => Promise<T[]>,
  pageSize: number,
  listing = 'list',
): InfinitePages<T> {
  const loadRef = useRef(load);
  loadRef.current = load;
  const location = useLocation();
  const [memoryKey] = useState(() => `${entryKey(location)}|${listing}`);
  const [remembered] = useState(() => rememberedPages<T>(memoryKey));
  const [pages, setPages] = useState<T[][]>(() => remembered.pages ?? []);
  const [loading, setLoading] = useState(!remembered.pages);
  const [error, setError] = useState<Error | null>(null);
  const busy = useRef(false);
  const controller = useRef<AbortController | null>(null);
  const done = pages.length > 0 && (pages[pages.length - 1]?.length ?? 0) < pageSize;

  const fetchPages = useCallback(
    async (from: number, to: number) => {
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
    },
    [pageSize],
  );

  useEffect(() => {
    controller.current = new AbortController();
    if (!remembered.pages) void fetchPages(1, Math.max(1, remembered.count ?? 1));
    return () => {
      controller.current?.abort();
      busy.current = false;
    };
  }, [fetchPages, remembered]);

  useEffect(() => {
    if (pages.length) rememberPages(memoryKey, pages);
  }, [memoryKey, pages]);

  const loadMore = useCallback(() => {
    if (busy.current || done || error) return;
    void fetchPages(pages.length + 1, pages.length + 1);
  }, [done, error, fetchPages, pages.length]);

  const retry = useCallback(() => {
    if (busy.current) return;
    setError(null);
    // Before any page arrived, a restore may still want several pages back.
    const to = pages.length === 0 ? Math.max(1, remembered.count ?? 1) : pages.length + 1;
    void fetchPages(pages.length + 1, to);
  }, [fetchPages, pages.length, remembered]);

  return { items: pages.flat(), pagesLoaded: pages.length, loading, error, done, loadMore, retry };
}
