/**
 * Only a path on this site: `next` comes from the URL, so anything else (`//host`, `/\\host`, a
 * scheme, control characters) goes home instead of off-site.
 */
export function safeNext(next: string | null): string {
  if (
    !next ||
    !next.startsWith('/') ||
    next.startsWith('//') ||
    next.includes('\\') ||
    [...next].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)
  )
    return '/';
  try {
    const url = new URL(next, window.location.origin);
    if (url.origin !== window.location.origin || url.pathname.startsWith('/login')) return '/';
    return url.pathname + url.search + url.hash;
  } catch {
    return '/';
  }
}
