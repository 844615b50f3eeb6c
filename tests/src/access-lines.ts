import { setTimeout as sleep } from 'node:timers/promises';

/** How many `request` access lines (JSON, as the services log them) have `field` equal to `value`. */
export function countRequests(lines: readonly string[], field: 'url' | 'path', value: string): number {
  return lines.filter((line) => {
    try {
      const entry = JSON.parse(line) as Record<string, unknown>;
      return entry.msg === 'request' && entry[field] === value;
    } catch {
      return false;
    }
  }).length;
}

/** Access lines are written in batches, at least every second: wait until the count stops moving. */
export async function settledCount(count: () => number): Promise<number> {
  let last = -1;
  for (let i = 0; i < 20; i += 1) {
    await sleep(1200);
    const now = count();
    if (now === last) return now;
    last = now;
  }
  return last;
}
