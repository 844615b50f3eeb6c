import type { Logger } from 'pino';

/**
 * Member ids whose media access is withdrawn (cancellation, chargeback) before their short-lived
 * tokens run out. Checked on every request; refreshed from an HTTP endpoint answering
 * `{ "members": ["12", ...] }` (the bff, later Redis) when MEDIA_REVOCATION_URL is set.
 */
export class RevocationList {
  private revoked = new Set<string>();
  private timer: NodeJS.Timeout | undefined;

  has(memberId: string): boolean {
    return this.revoked.has(memberId);
  }

  replace(memberIds: Iterable<string>): void {
    this.revoked = new Set(memberIds);
  }

  add(memberId: string): void {
    this.revoked.add(memberId);
  }

  async refreshFrom(url: string): Promise<void> {
    const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
    if (!res.ok) throw new Error(`revocation list answered ${res.status}`);
    const body = (await res.json()) as { members?: unknown };
    if (!Array.isArray(body.members)) throw new Error('revocation list body has no members array');
    this.replace(body.members.map(String));
  }

  /** A failed refresh keeps the last known list (fail-static) and logs. */
  startPolling(url: string, intervalSeconds: number, logger: Logger): void {
    const tick = () => this.refreshFrom(url).catch((err: unknown) => logger.warn({ err }, 'revocation refresh failed'));
    void tick();
    this.timer = setInterval(tick, intervalSeconds * 1000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
