import { z } from 'zod';

// The event type and account arrive in the query string (reference/ccbill.md §4).
export const webhookQuery = z.object({
  clientAccnum: z.coerce.number().int(),
  clientSubacc: z.coerce.number().int().optional(),
  eventType: z.string().regex(/^[A-Za-z]{3,40}$/),
});

/**
 * The only body fields we read or store: named scalars from reference/ccbill.md §4, plus our
 * pass-through attempt id. Everything else the provider sends (names, e-mail, card details, nested
 * objects, unknown keys) is dropped here and never reaches the database or a log line.
 */
const NAMED = [
  'transactionId',
  'subscriptionId',
  'clientAccnum',
  'clientSubacc',
  'timestamp',
  'billedAmount',
  'amount',
  'nextRenewalDate',
  'renewalDate',
  'failureReason',
  'reason',
] as const;
const FREE_TEXT = new Set<string>(['failureReason', 'reason']);
const MAX_LENGTH = 200;
// Provider text is not ours to trust: a long digit run in it could be a card number.
const DIGIT_RUN = /\d(?:[ -]?\d){11,}/g;

export type WebhookRecord = Partial<Record<(typeof NAMED)[number] | 'attempt', string>>;

function scalar(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string' || value === '') return undefined;
  return value.slice(0, MAX_LENGTH);
}

function pick(body: Record<string, unknown>): WebhookRecord {
  const own = (name: string) => (Object.hasOwn(body, name) ? body[name] : undefined);
  const record: WebhookRecord = {};
  for (const name of NAMED) {
    const value = scalar(own(name));
    if (value !== undefined) record[name] = FREE_TEXT.has(name) ? value.replace(DIGIT_RUN, '[digits]') : value;
  }
  // Our attempt id travels as pass-through `attempt` and comes back prefixed: `X-attempt`.
  const attempt = scalar(own('X-attempt') ?? own('attempt'));
  if (attempt !== undefined && /^\d{1,12}$/.test(attempt)) record.attempt = attempt;
  return record;
}

export const webhookBody = z.record(z.string(), z.unknown()).transform(pick);
