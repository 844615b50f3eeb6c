export interface KeyColumn {
  column: string;
  direction: 'asc' | 'desc';
}

export type AnchorKey = Record<string, string | number>;

export interface AnchorList {
  /** anchors[j] is the sort key of the row at 0-based position (j + 1) * every - 1. */
  anchors: AnchorKey[];
  total: number;
}

/** Where a page starts: after `after` (or from the top), skipping `skip` more rows; null past the end. */
export interface PageStart {
  after?: AnchorKey;
  skip: number;
}

/**
 * Deep pages without deep offsets. Every `every`-th sort key of a listing is kept in memory per
 * catalog generation, so page N is a short index range scan after the nearest anchor (at most
 * `every` rows) instead of an OFFSET that walks all the rows before it. Built by one window query
 * per listing: ahead of time by warm() after each catalog change (the running bff), or else on
 * the first deep page; shallow pages never need it.
 */
export class PageAnchors {
  private readonly lists = new Map<string, { generation: number; list: Promise<AnchorList> }>();
  private readonly builders = new Map<string, (every: number) => Promise<AnchorList>>();
  private warming: Promise<void> = Promise.resolve();
  private warmQueued = false;

  constructor(
    readonly every: number,
    private readonly generation: () => Promise<number>,
  ) {}

  /** A listing whose anchors warm() builds ahead of its first deep page. */
  register(name: string, build: (every: number) => Promise<AnchorList>): void {
    this.builders.set(name, build);
  }

  async locate(name: string, offset: number, build: (every: number) => Promise<AnchorList>): Promise<PageStart | null> {
    if (offset < this.every) return { skip: offset };
    const generation = await this.generation();
    const { anchors, total } = await this.entry(name, generation, build).list;
    if (offset >= total) return null;
    const j = Math.floor(offset / this.every) - 1;
    const after = anchors[j];
    if (!after) return { skip: offset };
    return { after, skip: offset - (j + 1) * this.every };
  }

  /**
   * Builds every registered listing's anchors for the current generation, one listing after
   * another, so the first deep page after a catalog change does not pay for it (a request that
   * arrives meanwhile shares the build in progress). Repeated calls while one is queued coalesce;
   * failures are left for the next request or change to retry.
   */
  warm(): Promise<void> {
    if (this.warmQueued) return this.warming;
    this.warmQueued = true;
    this.warming = this.warming.then(async () => {
      this.warmQueued = false;
      for (const [name, build] of this.builders) {
        try {
          await this.entry(name, await this.generation(), build).list;
        } catch {
          // The database is down or closing: the next request or change builds it.
        }
      }
    });
    return this.warming;
  }

  /** Resolves when no warm-up is running (before closing the database). */
  settled(): Promise<void> {
    return this.warming;
  }

  private entry(name: string, generation: number, build: (every: number) => Promise<AnchorList>) {
    let entry = this.lists.get(name);
    if (!entry || entry.generation !== generation) {
      const created = { generation, list: build(this.every) };
      this.lists.set(name, created);
      // A failed build (database down) must not stick.
      created.list.catch(() => {
        if (this.lists.get(name) === created) this.lists.delete(name);
      });
      entry = created;
    }
    return entry;
  }
}
