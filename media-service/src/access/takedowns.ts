import type { MediaPath } from '@media-site/storage/paths';
import { PolledList } from './polled-list';

/**
 * Folders whose media answer 410 because the item was taken down (docs/compliance.md), e.g.
 * `video/some-folder/`. Held in memory and checked on every request; refreshed from the bff's
 * `/internal/media-takedowns` (`{ "prefixes": [...] }`) every MEDIA_TAKEDOWN_INTERVAL_S, so no
 * request queries the database. The bff answers 304 to a matching ETag, which keeps a short
 * interval cheap.
 *
 * The same list names the folders of items scheduled for later (`scheduled`: prefix → release time,
 * unix ms): those answer 404 until that moment, compared with the clock on every request, so their
 * files open at the release time itself rather than at the next poll.
 */
export class TakedownList extends PolledList {
  protected readonly name = 'takedown';
  private prefixes = new Set<string>();
  private scheduled = new Map<string, number>();
  /** Teased items' cover thumbnails (media paths): the one file of a scheduled item open before its release. */
  private covers = new Set<string>();
  private hasLoaded = false;
  /** Called with what a refresh added and removed (not on the first load, which is the baseline). */
  onChange: ((added: string[], removed: string[]) => void) | undefined;

  isTakenDown(path: MediaPath): boolean {
    return this.prefixes.size > 0 && path.rest.length > 1 && this.prefixes.has(`${path.family}/${path.rest[0]}/`);
  }

  /** Milliseconds until the item `path` belongs to is released; 0 when it is (or was never scheduled). */
  unreleasedFor(path: MediaPath): number {
    if (this.scheduled.size === 0 || path.rest.length < 2) return 0;
    const at = this.scheduled.get(`${path.family}/${path.rest[0]}/`);
    if (at === undefined || this.covers.has(path.relative)) return 0;
    return Math.max(0, at - this.clock());
  }

  replaceScheduled(scheduled: Record<string, number>, covers: Iterable<string> = []): void {
    this.scheduled = new Map(Object.entries(scheduled).filter(([, at]) => Number.isFinite(at)));
    this.covers = new Set(covers);
  }

  replace(prefixes: Iterable<string>): void {
    const before = this.prefixes;
    this.prefixes = new Set(prefixes);
    const first = !this.hasLoaded;
    this.hasLoaded = true;
    if (first || !this.onChange) return;
    const added = [...this.prefixes].filter((p) => !before.has(p));
    const removed = [...before].filter((p) => !this.prefixes.has(p));
    if (added.length > 0 || removed.length > 0) this.onChange(added, removed);
  }

  protected accept(body: unknown): void {
    const prefixes = (body as { prefixes?: unknown } | null)?.prefixes;
    if (!Array.isArray(prefixes)) throw new Error('takedown list body has no prefixes array');
    // Absent from a bff that predates scheduled releases: then nothing is scheduled.
    const { scheduled, covers } = body as { scheduled?: unknown; covers?: unknown };
    this.replaceScheduled(
      scheduled && typeof scheduled === 'object' ? (scheduled as Record<string, number>) : {},
      Array.isArray(covers) ? covers.map(String) : [],
    );
    this.replace(prefixes.map(String));
  }
}
