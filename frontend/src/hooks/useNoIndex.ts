import { useLayoutEffect } from 'react';

/**
 * Marks the page `noindex` while it is shown (`<meta name="robots" content="noindex">`). The SPA
 * answers every address with 200, so a missing page or a taken-down item would otherwise read as a
 * page worth indexing; search engines that run the page's script honour the tag. A layout effect:
 * the tag is there when the page is.
 */
export function useNoIndex(): void {
  useLayoutEffect(() => {
    const meta = document.createElement('meta');
    meta.name = 'robots';
    meta.content = 'noindex';
    document.head.appendChild(meta);
    return () => meta.remove();
  }, []);
}
