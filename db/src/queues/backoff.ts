/**
 * The wait before the next try of a job that failed its `n`-th (n ≥ 1): `baseMs`, doubling with
 * each try, never more than `maxMs`. One rule for every queue: the encoder's outside failures and
 * crashes, the mail outbox's refusals, the purge outbox's (each with its own base and cap).
 */
export function doublingDelay(n: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.min(Math.max(1, n) - 1, 40));
}
