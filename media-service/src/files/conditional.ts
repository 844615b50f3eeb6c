import { parseHttpDate } from './http-date';

/** What a conditional request is compared with: the ETag as sent, and Last-Modified in unix seconds. */
export interface Validators {
  etag: string;
  lastModified: number;
}

export interface Conditions {
  ifMatch?: string | undefined;
  ifUnmodifiedSince?: string | undefined;
  ifNoneMatch?: string | undefined;
  ifModifiedSince?: string | undefined;
}

export type Precondition = 'proceed' | 'not_modified' | 'failed';

interface EntityTag {
  weak: boolean;
  opaque: string;
}

/**
 * `#entity-tag` (RFC 9110 §8.8.3): tags may contain commas, so the list is scanned tag by tag rather
 * than split. Null when the value is not such a list (it then matches nothing).
 */
function entityTags(value: string): EntityTag[] | null {
  const tags: EntityTag[] = [];
  let i = 0;
  while (i < value.length) {
    const c = value[i];
    if (c === ',' || c === ' ' || c === '\t') {
      i += 1;
      continue;
    }
    const weak = value.startsWith('W/', i);
    if (weak) i += 2;
    if (value[i] !== '"') return null;
    const close = value.indexOf('"', i + 1);
    if (close < 0) return null;
    tags.push({ weak, opaque: value.slice(i, close + 1) });
    i = close + 1;
    if (i < value.length && !/[\s,]/.test(value[i] ?? '')) return null;
  }
  return tags;
}

function parseOwn(etag: string): EntityTag {
  return etag.startsWith('W/') ? { weak: true, opaque: etag.slice(2) } : { weak: false, opaque: etag };
}

/** Strong comparison (§8.8.3.2): both strong and the same characters. */
function strongMatch(a: EntityTag, b: EntityTag): boolean {
  return !a.weak && !b.weak && a.opaque === b.opaque;
}

/** Weak comparison: the same opaque tag, weak or not. */
function weakMatch(a: EntityTag, b: EntityTag): boolean {
  return a.opaque === b.opaque;
}

function anyMatch(header: string, etag: string, match: (a: EntityTag, b: EntityTag) => boolean): boolean {
  if (header.trim() === '*') return true;
  const own = parseOwn(etag);
  return (entityTags(header) ?? []).some((tag) => match(tag, own));
}

/**
 * RFC 9110 §13.2.2, for GET and HEAD of a representation that exists:
 * 1. If-Match (strong comparison) false -> 412;
 * 2. else, If-Match absent, If-Unmodified-Since (a valid HTTP-date) earlier than Last-Modified -> 412;
 * 3. If-None-Match (weak comparison) matching -> 304;
 * 4. else, If-None-Match absent, If-Modified-Since equal to Last-Modified -> 304.
 * Range / If-Range come after this (range.ts).
 *
 * If-Modified-Since is an exact match, as nginx's default (`if_modified_since exact`) and as RFC 9110
 * §13.1.3 allows for origins: a file replaced by an older copy (a restore keeps the old mtime) is sent
 * again instead of judged "not modified since" a later date. Dates that are not HTTP-dates are ignored.
 */
export function evaluatePreconditions(c: Conditions, v: Validators): Precondition {
  if (c.ifMatch !== undefined) {
    if (!anyMatch(c.ifMatch, v.etag, strongMatch)) return 'failed';
  } else if (c.ifUnmodifiedSince !== undefined) {
    const since = parseHttpDate(c.ifUnmodifiedSince);
    if (since !== null && v.lastModified > since) return 'failed';
  }
  if (c.ifNoneMatch !== undefined) {
    return anyMatch(c.ifNoneMatch, v.etag, weakMatch) ? 'not_modified' : 'proceed';
  }
  if (c.ifModifiedSince !== undefined && parseHttpDate(c.ifModifiedSince) === v.lastModified) return 'not_modified';
  return 'proceed';
}

/**
 * If-Range (§13.1.5): the Range applies only on a strong match of the ETag (a weak tag never
 * matches) or a date equal to Last-Modified; anything else, an unparseable date included, means the
 * whole representation, so a changed file is never spliced into a resumed download.
 */
export function ifRangeHolds(ifRange: string | undefined, v: Validators): boolean {
  if (ifRange === undefined) return true;
  const value = ifRange.trim();
  if (value.startsWith('"') || value.startsWith('W/')) {
    const tags = entityTags(value);
    return tags?.length === 1 && strongMatch(tags[0] as EntityTag, parseOwn(v.etag));
  }
  return parseHttpDate(value) === v.lastModified;
}
