import type { MediaPath } from '@media-site/storage/paths';
import { PolledList } from './polled-list';

/**
 * Folders whose media answer 410 because the item was taken down (docs/compliance.md), e.g.
 * `video/some-folder/`. Held in memory and checked on every request; refreshed from the bff's
 * `/internal/media-takedowns` (`{ "prefixes": [...] }`) every MEDIA_TAKEDOWN_INTERVAL_S, so no
 * request queries the database. The bff answers 304 to a matching ETag, which keeps a short
 * interval cheap.
 */
export class TakedownList extends PolledList {
  protected readonly name = 'takedown';
  private prefixes = new Set<string>();
  private hasLoaded = false;
  /** Called with what a refresh added and removed (not on the first load, which is the baseline). */
  onChange: ((added: string[], removed: string[]) => void) | undefined;

  isTakenDown(path: MediaPath): boolean {
    return this.prefixes.size > 0 && path.rest.length > 1 && this.prefixes.has(`${path.family}/${path.rest[0]}/`);
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
    this.replace(prefixes.map(String));
  }
}
