import type { Logger } from 'pino';
import type { MediaPath } from '../files/paths';

/**
 * Folders whose media answer 410 because the item was taken down (docs/compliance.md), e.g.
 * `video/some-folder/`. Held in memory and checked on every request; refreshed from the bff's
 * `/internal/media-takedowns` (`{ "prefixes": [...] }`) so no request queries the database. The
 * bff answers 304 to a matching ETag, which keeps a short interval cheap.
 */
export class TakedownList {
  private prefixes = new Set<string>();
  private etag: string | undefined;
  private timer: NodeJS.Timeout | undefined;

  isTakenDown(path: MediaPath): boolean {
    return this.prefixes.size > 0 && path.rest.length > 1 && this.prefixes.has(`${path.family}/${path.rest[0]}/`);
  }

  replace(prefixes: Iterable<string>): void {
    this.prefixes = new Set(prefixes);
  }

  async refreshFrom(url: string): Promise<void> {
    const res = await fetch(url, { signal: AbortSignal.timeout(5000), headers: this.etag ? { 'If-None-Match': this.etag } : {} });
    if (res.status === 304) return;
    if (!res.ok) throw new Error(`takedown list answered ${res.status}`);
    const body = (await res.json()) as { prefixes?: unknown };
    if (!Array.isArray(body.prefixes)) throw new Error('takedown list body has no prefixes array');
    this.replace(body.prefixes.map(String));
    this.etag = res.headers.get('ETag') ?? undefined;
  }

  /** A failed refresh keeps the last known list (fail-static) and logs. */
  startPolling(url: string, intervalSeconds: number, logger: Logger): void {
    const tick = () => this.refreshFrom(url).catch((err: unknown) => logger.warn({ err }, 'takedown list refresh failed'));
    void tick();
    this.timer = setInterval(tick, intervalSeconds * 1000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
