import { z } from 'zod';
import type { SiteStatus } from '@media-site/contracts/site-status';
import type { Resource } from '../openapi/operation';

/** The answer of GET /api/site and of the console's maintenance switch. */
export const siteStatus = z.strictObject({
  maintenance: z.strictObject({ since: z.number(), message: z.string() }).nullable(),
}) satisfies z.ZodType<SiteStatus>;

export const siteApi: Resource = {
  tag: 'site',
  description: 'The site itself: maintenance mode (joining, buying and account changes paused), for the banner every page shows.',
  operations: [
    {
      method: 'get',
      path: '/api/site',
      summary: "Whether the site is in maintenance, since when, and the operator's message",
      answers: { 200: siteStatus },
      errors: [],
    },
  ],
};
