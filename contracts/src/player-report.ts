import { z } from 'zod';
import { PLAYER_ERROR_KINDS, PLAYER_REPORT_EVENTS_MAX, PLAYER_REPORT_MAX_MS } from './player-quality';

export {
  PLAYER_ERROR_KINDS,
  PLAYER_REPORT_BODY_LIMIT,
  PLAYER_REPORT_EVENTS_MAX,
  PLAYER_REPORT_MAX_MS,
  type PlayerErrorKind,
} from './player-quality';

/**
 * What a member's player reports about its own playback (POST /api/player/reports, sent with
 * `navigator.sendBeacon` in small batches): how long the first frame took, each stall and how long
 * it lasted, a change of quality, an error. The bff counts them into histograms and counters by
 * rendition (its short side, in ladder steps) and browser family only: nothing names the member,
 * the item or the page.
 */

/** The rendition's short side in pixels (1080 for 1920×1080), as the encoder names rungs. */
const shortSide = z
  .number({ message: 'rendition must be a number' })
  .int('rendition must be whole pixels')
  .min(1, 'rendition must be at least 1')
  .max(8640, 'rendition must be at most 8640');
const ms = z
  .number({ message: 'ms must be a number' })
  .finite()
  .min(0, 'ms must not be negative')
  .max(PLAYER_REPORT_MAX_MS, `ms must be at most ${PLAYER_REPORT_MAX_MS}`);

export const playerEvent = z.discriminatedUnion(
  'kind',
  [
    /** Play pressed (or asked for) → the first frame on screen. */
    z.strictObject({ kind: z.literal('start'), rendition: shortSide, ms }),
    /** Playing, then waiting for data (not while seeking), until it played again. */
    z.strictObject({ kind: z.literal('stall'), rendition: shortSide, ms }),
    /** The quality changed from one rendition to another. */
    z.strictObject({ kind: z.literal('switch'), rendition: shortSide, from: shortSide }),
    z.strictObject({ kind: z.literal('error'), rendition: shortSide, error: z.enum(PLAYER_ERROR_KINDS) }),
  ],
  { error: 'kind must be start, stall, switch or error' },
);
export type PlayerEvent = z.infer<typeof playerEvent>;

export const playerReport = z.strictObject({
  events: z
    .array(playerEvent)
    .min(1, 'events must not be empty')
    .max(PLAYER_REPORT_EVENTS_MAX, `at most ${PLAYER_REPORT_EVENTS_MAX} events in one report`),
});
export type PlayerReport = z.infer<typeof playerReport>;
