import { useEffect } from 'react';
import { SITE_NAME } from '../config/site';

export function pageTitle(name: string): string {
  return `${name} – ${SITE_NAME}`;
}

/**
 * Names the page in the browser tab and for screen readers ("Photos – Media Site"). Layout sets a
 * default per route first; a page's own title (which may wait for its data) replaces it.
 */
export function usePageTitle(name: string | null | undefined): void {
  useEffect(() => {
    if (name) document.title = pageTitle(name);
  }, [name]);
}
