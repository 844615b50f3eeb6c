import { useEffect, useRef } from 'react';

// An empty block at the end of a list; `onVisible` fires when it comes within `margin` of the viewport.
// A new `generation` (the item count) observes afresh, so a sentinel still in view after a short page
// asks again.
export function Sentinel({ onVisible, margin = '0px', generation }: { onVisible: () => void; margin?: string; generation: number }) {
  const ref = useRef<HTMLDivElement>(null);
  const callback = useRef(onVisible);
  callback.current = onVisible;

  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === 'undefined') return undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) callback.current();
      },
      { rootMargin: margin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [margin, generation]);

  return <div ref={ref} className="sentinel" aria-hidden="true" />;
}
