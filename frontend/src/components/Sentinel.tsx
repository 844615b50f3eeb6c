import { useEffect, useRef } from 'react';

// An empty block at the end of a list; `onVisible` fires when it comes within `margin` (px) of the
// viewport. A new `generation` (the item count) observes afresh, so a sentinel still in view after a
// short page asks again. An observer's entry can be stale: one computed while the list was still
// empty (the sentinel at the top) may be delivered after the first page has pushed it far down (home
// with its first answers preloaded asked for page 2 at once), so the sentinel's place is checked again
// when the entry arrives.
export function Sentinel({ onVisible, margin = '0px', generation }: { onVisible: () => void; margin?: `${number}px`; generation: number }) {
  const ref = useRef<HTMLDivElement>(null);
  const callback = useRef(onVisible);
  callback.current = onVisible;

  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === 'undefined') return undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        const { top, bottom } = element.getBoundingClientRect();
        const reach = Number.parseFloat(margin);
        if (top <= window.innerHeight + reach && bottom >= -reach) callback.current();
      },
      { rootMargin: margin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [margin, generation]);

  return <div ref={ref} className="sentinel" aria-hidden="true" />;
}
