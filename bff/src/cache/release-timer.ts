import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { nextRelease } from '@media-site/db/content';

/** setTimeout's longest delay; a release further ahead is re-armed when this one fires. */
const MAX_DELAY_MS = 2 ** 31 - 1;
/** After a database error, try again this soon (the database is the schedule's only record). */
const RETRY_MS = 1000;
/** Fires at most this often: a release that stays due (a clock behind the database's) cannot spin. */
const MIN_GAP_MS = 25;

export interface ReleaseSource {
  releaseDue(now: number): Promise<number | undefined>;
  onGenerationChange(listener: (generation: number) => void): void;
}

/**
 * Scheduled releases: a timer in every bff set for the next `publish_at` the catalog
 * generation has not been bumped for. When it fires, the generation is bumped once (whichever
 * instance comes first; db releaseDue), so every cache tier, the front door's included, drops the
 * listings that left the item out, and the item shows at its time with no purge and no cron.
 * Re-armed from the database at start, after each release, and whenever the generation changes
 * (a schedule, unschedule, takedown or ingest bumps it), so it survives restarts and follows the CLI.
 */
export class ReleaseTimer {
  private timer: NodeJS.Timeout | undefined;
  private arming = false;
  private armAgain = false;
  private stopped = false;
  private failing = false;
  private lastFire = 0;

  constructor(
    private readonly knex: Knex,
    private readonly source: ReleaseSource,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  start(): void {
    this.source.onGenerationChange(() => this.arm());
    this.arm();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** Reads the next release and sets the timer for it; calls made while it reads coalesce into one more read. */
  arm(): void {
    if (this.stopped) return;
    if (this.arming) {
      this.armAgain = true;
      return;
    }
    this.arming = true;
    void this.armFromDatabase().finally(() => {
      this.arming = false;
      if (this.armAgain) {
        this.armAgain = false;
        this.arm();
      }
    });
  }

  private async armFromDatabase(): Promise<void> {
    let next: number | undefined;
    try {
      next = await nextRelease(this.knex);
      this.recovered();
    } catch (err) {
      this.failed(err);
      this.setTimer(RETRY_MS, () => this.arm());
      return;
    }
    if (next === undefined) clearTimeout(this.timer);
    // +1: Node may run a timer a millisecond early, before the release is due.
    else this.setTimer(Math.max(next + 1, this.lastFire + MIN_GAP_MS) - this.now(), () => void this.fire());
  }

  private async fire(): Promise<void> {
    this.lastFire = this.now();
    try {
      const generation = await this.source.releaseDue(this.now());
      this.recovered();
      if (generation !== undefined) this.logger.info({ generation }, 'scheduled release: catalog generation bumped');
      this.arm();
    } catch (err) {
      this.failed(err);
      this.setTimer(RETRY_MS, () => void this.fire());
    }
  }

  private setTimer(delayMs: number, run: () => void): void {
    clearTimeout(this.timer);
    if (this.stopped) return;
    this.timer = setTimeout(run, Math.min(Math.max(0, delayMs), MAX_DELAY_MS));
    this.timer.unref();
  }

  private failed(err: unknown): void {
    if (!this.failing) this.logger.warn({ err }, 'scheduled releases: database unreadable; retrying every second');
    this.failing = true;
  }

  private recovered(): void {
    if (this.failing) this.logger.info('scheduled releases: database readable again');
    this.failing = false;
  }
}
