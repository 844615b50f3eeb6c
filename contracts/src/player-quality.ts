/**
 * The bounds of a player quality report (POST /api/player/reports; the schema is player-report.ts),
 * without zod, for the SPA to build its batches by.
 */

/** A batch holds at most this many events; the player sends before it has more. */
export const PLAYER_REPORT_EVENTS_MAX = 32;
/** 32 events of about 50 bytes each, with room to spare; a larger body is refused unread (413). */
export const PLAYER_REPORT_BODY_LIMIT = 4096;
/** Longer than any wait a report should describe; a longer one is a sleeping tab, not a stall. */
export const PLAYER_REPORT_MAX_MS = 600_000;

/** `MediaError` codes by name (aborted 1, network 2, decode 3, unsupported 4), and anything else. */
export const PLAYER_ERROR_KINDS = ['aborted', 'network', 'decode', 'unsupported', 'other'] as const;
export type PlayerErrorKind = (typeof PLAYER_ERROR_KINDS)[number];
