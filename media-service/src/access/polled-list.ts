import type { Logger } from 'pino';

/** Where a list stands, as /readyz reports it. */
export interface ListState {
  /** `url`: polled from the bff; `static`: no URL configured (local development and unit tests only). */
  source: 'url' | 'static';
  loaded: boolean;
  /** Seconds since the last successful refresh (a 304 counts); null before the first. */
  ageSeconds: number | null;
  /** Older than this and the service reports itself unready (it keeps using the last list). */
  maxAgeSeconds: number | null;
}

// Until the first load succeeds every media request is refused, so retry soon, backing off to 2 s.
const FIRST_LOAD_RETRY_MS = [250, 500, 1000, 2000];
// Failures before the first load are expected while the bff starts alongside (npm start, compose):
// info for this long, a warning after.
const QUIET_START_MS = 30_000;

/** Three missed polls plus time for a slow answer: a list this old is reported, not trusted blindly. */
export function maxListAgeSeconds(intervalSeconds: number): number {
  return 3 * intervalSeconds + 30;
}

/**
 * A list the media service holds in memory and refreshes from the bff (`If-None-Match`, so an
 * unchanged list costs a 304). A failed refresh keeps the last list (fail-static); before the first
 * success the list counts as not loaded, and the service refuses media rather than serve files it
 * cannot yet tell are revoked or taken down.
 */
export abstract class PolledList {
  protected abstract readonly name: string;
  private etag: string | undefined;
  private loadedAt: number | undefined;
  private intervalSeconds: number | undefined;
  /** How this service names itself to the bff (host:port), for the console's list ages. */
  private instance: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(protected readonly clock: () => number = Date.now) {}

  /** Takes a fresh body (a 200) or throws if it is not the list's shape. */
  protected abstract accept(body: unknown): void;

  get loaded(): boolean {
    return this.intervalSeconds === undefined || this.loadedAt !== undefined;
  }

  state(): ListState {
    const polled = this.intervalSeconds !== undefined;
    return {
      source: polled ? 'url' : 'static',
      loaded: this.loaded,
      ageSeconds: this.loadedAt === undefined ? null : Math.floor((this.clock() - this.loadedAt) / 1000),
      maxAgeSeconds: polled ? maxListAgeSeconds(this.intervalSeconds ?? 0) : null,
    };
  }

  async refreshFrom(url: string): Promise<void> {
    // The list is as fresh as the moment it was asked for, not when the answer arrived.
    const asked = this.clock();
    const headers: Record<string, string> = this.etag ? { 'If-None-Match': this.etag } : {};
    if (this.instance && this.intervalSeconds !== undefined) {
      headers['X-Media-Instance'] = this.instance;
      headers['X-Media-List-Max-Age'] = String(maxListAgeSeconds(this.intervalSeconds));
    }
    const res = await fetch(url, { signal: AbortSignal.timeout(5000), headers });
    if (res.status !== 304) {
      if (!res.ok) throw new Error(`${this.name} list answered ${res.status}`);
      this.accept(await res.json());
      this.etag = res.headers.get('ETag') ?? undefined;
    }
    this.loadedAt = Math.max(asked, this.loadedAt ?? asked);
  }

  /**
   * Polls every `intervalSeconds` once loaded (start to start); before that, retries within a second or two. With
   * `instance`, each poll names this service and its age bound to the bff (the console's dashboard).
   */
  startPolling(url: string, intervalSeconds: number, logger: Logger, instance?: string): void {
    this.intervalSeconds = intervalSeconds;
    this.instance = instance;
    let failures = 0;
    let warned = false;
    const pollingSince = this.clock();
    const tick = async () => {
      const started = performance.now();
      try {
        await this.refreshFrom(url);
        if (warned) logger.info({ list: this.name }, `${this.name} list refreshed again`);
        failures = 0;
        warned = false;
      } catch (err) {
        failures += 1;
        const starting = this.loadedAt === undefined;
        const level = starting && this.clock() - pollingSince < QUIET_START_MS ? 'info' : 'warn';
        warned ||= level === 'warn';
        logger[level](
          { err, list: this.name, failures },
          starting
            ? `${this.name} list not loaded yet; media requests wait for it`
            : `${this.name} list refresh failed; keeping the last one`,
        );
      }
      if (this.stopped) return;
      // Once loaded, a poll starts every interval however long the last answer took: a change on the
      // bff waits at most one interval and one answer (the revocation list's 10 s bound).
      const delay =
        this.loadedAt === undefined
          ? (FIRST_LOAD_RETRY_MS[Math.min(failures, FIRST_LOAD_RETRY_MS.length) - 1] ?? 2000)
          : Math.max(0, intervalSeconds * 1000 - (performance.now() - started));
      this.timer = setTimeout(() => void tick(), delay);
      this.timer.unref();
    };
    void tick();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }
}
