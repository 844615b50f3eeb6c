import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation, useNavigationType } from 'react-router-dom';
import { entryKey, persistHistoryMemory, rememberedScroll, rememberScroll, restoresOnEveryVisit } from './historyMemory';

// The page may still be loading what made it tall; give up waiting after this long.
const RESTORE_WAIT_MS = 10_000;
const USER_INPUT = ['wheel', 'touchstart', 'keydown', 'mousedown'] as const;

/** Scrolls to `y` as soon as the document is tall enough; stops early when the visitor takes over. */
function restoreScroll(y: number, onDone: () => void): () => void {
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    observer?.disconnect();
    clearTimeout(timer);
    for (const type of USER_INPUT) window.removeEventListener(type, finish, true);
    onDone();
  };
  const attempt = () => {
    if (document.documentElement.scrollHeight - window.innerHeight < y) return;
    window.scrollTo(0, y);
    finish();
  };
  const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(attempt);
  observer?.observe(document.body);
  const timer = setTimeout(() => {
    window.scrollTo(0, y);
    finish();
  }, RESTORE_WAIT_MS);
  for (const type of USER_INPUT) window.addEventListener(type, finish, { capture: true, passive: true });
  attempt();
  return finish;
}

/**
 * One mechanism for every route: a new page starts at the top; Back, Forward and a reload return to
 * the position this history entry had, once the page has grown tall enough again (listings bring
 * back their loaded pages through useInfinitePages).
 */
export function useScrollRestoration(): void {
  const location = useLocation();
  const navigationType = useNavigationType();
  const entry = entryKey(location);
  const current = useRef(entry);
  const restoring = useRef<(() => void) | null>(null);

  useLayoutEffect(() => {
    current.current = entry;
    restoring.current?.();
    persistHistoryMemory();
    const restore = navigationType === 'POP' || restoresOnEveryVisit(location.pathname);
    const target = restore ? rememberedScroll(entry) : null;
    if (target === null) {
      if (navigationType !== 'POP') window.scrollTo(0, 0);
      return undefined;
    }
    let done = false;
    let stop: (() => void) | null = null;
    stop = restoreScroll(target, () => {
      done = true;
      if (restoring.current === stop) restoring.current = null;
    });
    // The restore may already be over (the page was tall enough at once).
    if (!done) restoring.current = stop;
    return undefined;
  }, [entry, navigationType, location.pathname]);

  useEffect(() => {
    // While a restore waits for content, the short page's clamped position is not the visitor's.
    const track = () => {
      if (!restoring.current) rememberScroll(current.current, window.scrollY);
    };
    window.addEventListener('scroll', track, { passive: true });
    window.addEventListener('pagehide', persistHistoryMemory);
    return () => {
      window.removeEventListener('scroll', track);
      window.removeEventListener('pagehide', persistHistoryMemory);
      restoring.current?.();
      persistHistoryMemory();
    };
  }, []);
}
