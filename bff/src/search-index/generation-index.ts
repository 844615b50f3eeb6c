import type { Logger } from 'pino';

/** Thrown by a build whose source has more rows than the index may hold; that generation is served without it. */
export class TooManyRows extends Error {}

export interface GenerationIndexOptions<T> {
  /** Reads and indexes the catalog as it is now. */
  build(): Promise<T>;
  logger?: Logger | undefined;
  /** After a failed build (database down), how long searches go without the index before the next try. */
  retryMs?: number;
}

export type IndexState = 'empty' | 'building' | 'ready' | 'too large' | 'failed';

export interface IndexStatus {
  state: IndexState;
  generation?: number;
  buildMs?: number;
}

/**
 * An in-memory index valid for exactly one catalog generation. A catalog change must be visible at
 * once, so the index of an older generation is never answered from: `current()` returns undefined
 * (the caller falls back to the database) until the index of the asked generation is built. Builds
 * start lazily on the first ask of a generation and run one at a time; one that finishes for a
 * generation the catalog has moved past is dropped, and the asked generation's build follows at once.
 */
export class GenerationIndex<T> {
  private ready: { generation: number; index: T } | undefined;
  private building: Promise<void> | undefined;
  private buildingGeneration: number | undefined;
  private skip: { generation: number; until: number; state: IndexState } | undefined;
  // The generation searches asked for last; a build that finishes for another one is dropped.
  private wanted: number | undefined;
  private lastBuildMs: number | undefined;

  constructor(private readonly options: GenerationIndexOptions<T>) {}

  /** The index of `generation` when it is built; otherwise undefined, and a build is started if none runs. */
  current(generation: number): T | undefined {
    this.wanted = generation;
    if (this.ready?.generation === generation) return this.ready.index;
    // A stale index is never used again: free it now rather than beside its successor.
    this.ready = undefined;
    if (!this.building && !this.skips(generation)) this.start(generation);
    return undefined;
  }

  /** Resolves when no build is running (tests and warm-up). */
  async settled(): Promise<void> {
    while (this.building) await this.building;
  }

  get status(): IndexStatus {
    if (this.building) return { state: 'building', generation: this.buildingGeneration };
    if (this.ready) return { state: 'ready', generation: this.ready.generation, buildMs: this.lastBuildMs };
    if (this.skip) return { state: this.skip.state, generation: this.skip.generation };
    return { state: 'empty' };
  }

  /** A generation whose build failed or was too large, not to be tried again yet. */
  private skips(generation: number): boolean {
    return this.skip !== undefined && this.skip.generation === generation && Date.now() < this.skip.until;
  }

  private start(generation: number): void {
    const { build, logger, retryMs = 5000 } = this.options;
    const started = performance.now();
    this.buildingGeneration = generation;
    this.building = build()
      .then((index) => {
        this.lastBuildMs = Math.round(performance.now() - started);
        this.skip = undefined;
        if (this.wanted === generation) this.ready = { generation, index };
        logger?.info({ generation, buildMs: this.lastBuildMs, used: this.wanted === generation }, 'search index built');
      })
      .catch((err: unknown) => {
        const tooLarge = err instanceof TooManyRows;
        this.skip = { generation, until: tooLarge ? Infinity : Date.now() + retryMs, state: tooLarge ? 'too large' : 'failed' };
        if (tooLarge) logger?.warn({ generation, reason: err.message }, 'search index skipped: searching the database');
        else logger?.warn({ err, generation }, 'search index build failed: searching the database');
      })
      .finally(() => {
        this.building = undefined;
        this.buildingGeneration = undefined;
        // The catalog moved on while this one built: build the generation searches ask for now,
        // without waiting for the next search to ask (settled() waits for that build too).
        const wanted = this.wanted;
        if (wanted !== undefined && wanted !== generation && !this.skips(wanted)) this.start(wanted);
      });
  }
}
