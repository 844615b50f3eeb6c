/** A `<meta name>` of index.html, which nginx fills in from configuration (SITE_NAME, SITE_LOGO). */
function fromPage(name: string, fallback: string): string {
  const value = typeof document === 'undefined' ? null : document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content;
  return value?.trim() || fallback;
}

/** The site's name (header, page titles, footer, 2257 page): SITE_NAME at the front door. */
export const SITE_NAME = fromPage('site-name', 'Media Site');
/** The brand mark's URL: SITE_LOGO's versioned URL at the front door, the SPA's own logo.svg otherwise. */
export const SITE_LOGO = fromPage('site-logo', '/logo.svg');

// Invented placeholder contact details; operators replace them before going live.
export const SITE_EMAIL = 'support@example.com';
export const RECORDS_EMAIL = 'records@example.com';
export const POSTAL_ADDRESS = ['Example Media Ltd.', '100 Placeholder Street, Suite 1', 'Example City, EX 00000', 'Exampleland'];
export const JOIN_FEE = '$14.99';
