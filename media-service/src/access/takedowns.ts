import type { MediaPath } from '../files/paths';
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

  isTakenDown(path: MediaPath): boolean {
    return this.prefixes.size > 0 && path.rest.length > 1 && this.prefixes.has(`${path.family}/${path.rest[0]}/`);
  }

  replace(prefixes: Iterable<string>): void {
    this.prefixes = new Set(prefixes);
  }

  protected accept(body: unknown): void {
    const prefixes = (body as { prefixes?: unknown } | null)?.prefixes;
    if (!Array.isArray(prefixes)) throw new Error('takedown list body has no prefixes array');
    this.replace(prefixes.map(String));
  }
}
