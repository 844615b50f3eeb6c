import { useEffect, useRef } from 'react';

// Pages that load their data first show their heading later; stop watching after this long.
const WAIT_MS = 10_000;

function pageHeading(container: HTMLElement): HTMLElement | null {
  // The age gate's heading belongs to its dialog, which manages its own focus.
  return [...container.querySelectorAll<HTMLElement>('h1')].find((heading) => !heading.closest('dialog')) ?? null;
}

/**
 * After a client-side navigation, moves focus to the new page's <h1> so that a screen reader
 * announces the page and Tab continues from there. The first page load leaves focus to the browser.
 */
export function useHeadingFocus(pathname: string, containerId: string): void {
  const shown = useRef(pathname);

  useEffect(() => {
    if (shown.current === pathname) return undefined;
    shown.current = pathname;
    const container = document.getElementById(containerId);
    if (!container) return undefined;
    const startedOn = document.activeElement;
    const focus = (): boolean => {
      // Someone who started typing while the page loaded (the search box, a form) keeps their place.
      const active = document.activeElement;
      if (active !== startedOn && active?.matches('input, textarea, select')) return true;
      const heading = pageHeading(container);
      if (!heading) return false;
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.focus({ preventScroll: true });
      return true;
    };
    if (focus()) return undefined;
    const observer = new MutationObserver(() => {
      if (focus()) stop();
    });
    const timer = setTimeout(() => stop(), WAIT_MS);
    function stop() {
      observer.disconnect();
      clearTimeout(timer);
    }
    observer.observe(container, { childList: true, subtree: true });
    return stop;
  }, [pathname, containerId]);
}
