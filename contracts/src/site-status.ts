/**
 * GET /api/site: what every page needs to know about the site itself. Maintenance mode (`ops
 * maintenance on`, the console's dashboard) pauses joining, buying and account changes; browsing,
 * watching and downloads go on. The SPA shows its banner from this answer. No zod here: the SPA
 * imports these values (the answer's schema is the bff's, routes/api/site/openapi.ts).
 */
export const MAINTENANCE_MESSAGE_MAX = 300;

export interface SiteStatus {
  /** Set while the site is in maintenance: since when (Unix ms), and the operator's words for members (may be empty). */
  maintenance: { since: number; message: string } | null;
}

/** What a paused change answers (503 `unavailable`, then the operator's message), and the banner's first words. */
export const MAINTENANCE_TEXT =
  'The site is in maintenance: joining, buying and account changes are paused for a short while. Browsing, watching and downloads work as usual.';
