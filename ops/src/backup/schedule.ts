// BACKUP_SCHEDULE: the UTC times of day `backup --scheduled` runs at ("03:30", or "03:30,15:30").

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** The schedule's times as minutes after midnight UTC, sorted; throws on anything else. */
export function parseSchedule(text: string): number[] {
  const parts = text.split(',').map((p) => p.trim());
  if (parts.length > 24) throw new Error('at most 24 times a day');
  const minutes = parts.map((part) => {
    const m = TIME.exec(part);
    if (!m) throw new Error(`"${part.slice(0, 20)}" is not a time of day as HH:MM (UTC)`);
    return Number(m[1]) * 60 + Number(m[2]);
  });
  return [...new Set(minutes)].sort((a, b) => a - b);
}

/** The first scheduled instant after `now` (ms). */
export function nextRunAt(minutes: readonly number[], now: number): number {
  const midnight = Math.floor(now / 86_400_000) * 86_400_000;
  for (const day of [0, 1]) {
    for (const m of minutes) {
      const at = midnight + day * 86_400_000 + m * 60_000;
      if (at > now) return at;
    }
  }
  throw new Error('an empty schedule');
}
