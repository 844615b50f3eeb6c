import { Counter, Histogram, Registry } from 'prom-client';
import type { PlayerEvent } from '@media-site/contracts/player-report';

/**
 * Playback as members' players saw it (POST /api/player/reports): time to the first frame, stalls
 * and their length, quality changes and errors. Labels are closed sets: the rendition in ladder
 * steps (1080p, 720p, 480p, low) and the browser family (chrome, edge, firefox, safari, other), so
 * at most 20 combinations per histogram whatever the traffic. Module-level like the payment
 * counters; merged into every bff scrape (docs/operate.md, "Monitoring").
 */
export const playerRegistry = new Registry();

const firstFrame = new Histogram({
  name: 'player_time_to_first_frame_seconds',
  help: "From play to the first frame on screen, as members' players measured it",
  labelNames: ['rendition', 'browser'] as const,
  buckets: [0.1, 0.25, 0.5, 1, 2, 4, 8, 15],
  registers: [playerRegistry],
});

const stalls = new Histogram({
  name: 'player_stall_seconds',
  help: 'Each stall while playing (waiting for data, not seeking) and how long it lasted; the count is the number of stalls',
  labelNames: ['rendition', 'browser'] as const,
  buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
  registers: [playerRegistry],
});

const switches = new Counter({
  name: 'player_quality_switches_total',
  help: 'Quality changes by direction (up: to a taller rendition, down: to a shorter one)',
  labelNames: ['direction', 'browser'] as const,
  registers: [playerRegistry],
});

const errors = new Counter({
  name: 'player_errors_total',
  help: "Playback errors by the media element's error kind (aborted, network, decode, unsupported, other)",
  labelNames: ['kind', 'browser'] as const,
  registers: [playerRegistry],
});

// Present from the first scrape, so a rate over them is 0 rather than absent.
for (const kind of ['network', 'decode', 'unsupported']) errors.inc({ kind, browser: 'other' }, 0);

/** The ladder step a short side belongs to (the encoder's rungs: 1080, 720, 480; smaller sources are low). */
export function renditionLabel(shortSide: number): string {
  if (shortSide >= 1080) return '1080p';
  if (shortSide >= 720) return '720p';
  if (shortSide >= 480) return '480p';
  return 'low';
}

/**
 * The browser family from a User-Agent (linear tests on fixed substrings, first match wins): Edge
 * and the other Chromium brands say "Chrome/" too, and Chrome says "Safari/", hence the order.
 */
export function browserFamily(userAgent: string): string {
  if (userAgent.includes('Edg/') || userAgent.includes('EdgA/') || userAgent.includes('EdgiOS/')) return 'edge';
  if (userAgent.includes('Firefox/') || userAgent.includes('FxiOS/')) return 'firefox';
  if (userAgent.includes('Chrome/') || userAgent.includes('Chromium/') || userAgent.includes('CriOS/')) return 'chrome';
  if (userAgent.includes('Safari/') && userAgent.includes('Version/')) return 'safari';
  return 'other';
}

/** Counts one report's events. */
export function countPlayerEvents(events: readonly PlayerEvent[], userAgent: string): void {
  const browser = browserFamily(userAgent);
  for (const event of events) {
    const rendition = renditionLabel(event.rendition);
    if (event.kind === 'start') firstFrame.observe({ rendition, browser }, event.ms / 1000);
    else if (event.kind === 'stall') stalls.observe({ rendition, browser }, event.ms / 1000);
    else if (event.kind === 'switch') switches.inc({ direction: event.rendition > event.from ? 'up' : 'down', browser });
    else errors.inc({ kind: event.error, browser });
  }
}
