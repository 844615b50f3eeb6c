import type { PositionView } from '@media-site/contracts/playback-api';
import type { Position } from './repository';

/** Near enough to the end to count as watched: the last 5 % (at most 30 s). */
export function isCompleted(positionMs: number, durationMs: number | null): boolean {
  return durationMs !== null && durationMs - positionMs <= Math.min(30_000, durationMs * 0.05);
}

/** The JSON of a position: `{ seconds, duration, completed, updatedAt }` (0 / null when none is stored). */
export function positionView(position: Position | undefined, durationMs: number | null): PositionView {
  const duration = position?.durationMs ?? durationMs;
  return {
    seconds: position ? position.positionMs / 1000 : 0,
    duration: duration === null ? null : duration / 1000,
    completed: position ? isCompleted(position.positionMs, duration) : false,
    updatedAt: position ? new Date(position.updatedAt).toISOString() : null,
  };
}
