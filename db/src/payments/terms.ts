import { z } from 'zod';

/**
 * A membership's terms as settings: the bff's configuration takes them from here, and the operator
 * CLI's reconcile reads the same variables without the bff's configuration and its secrets. One
 * definition, so both use the same defaults and bounds.
 */
export const membershipTermsShape = {
  MEMBERSHIP_PERIOD_DAYS: z.coerce.number().int().min(1).max(365).default(30).describe("a membership's period in days"),
  MEMBERSHIP_REBILLS: z.coerce.number().int().min(0).max(99).default(99).describe('how many times a membership rebills'),
};
