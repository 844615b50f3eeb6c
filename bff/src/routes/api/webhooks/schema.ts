import { z } from 'zod';

// The event type and account arrive in the query string (reference/ccbill.md §4).
export const webhookQuery = z.object({
  clientAccnum: z.coerce.number().int(),
  clientSubacc: z.coerce.number().int().optional(),
  eventType: z.string().regex(/^[A-Za-z]{3,40}$/),
});

export const webhookFields = z
  .object({
    transactionId: z.union([z.string(), z.number()]).optional(),
    subscriptionId: z.union([z.string(), z.number()]).optional(),
    clientAccnum: z.union([z.string(), z.number()]).optional(),
    nextRenewalDate: z.string().optional(),
    username: z.string().optional(),
  })
  .loose();
export type WebhookFields = z.infer<typeof webhookFields>;
