/** More ranges than this in one request get the whole file (CVE-2011-3192 style floods). */
export const MAX_RANGES = 8;

export interface ByteRange {
  start: number;
  end: number;
}

export type RangeDecision =
  | { kind: 'full' }
  | { kind: 'partial'; ranges: ByteRange[] }
  | { kind: 'unsatisfiable' };

export interface Validators {
  etag: string;
  lastModified: string;
}

/**
 * If-Range (RFC 9110 §13.1.5): a Range applies only when the validator matches with a strong
 * comparison, or the date equals Last-Modified exactly. A weak ETag never matches, so a changed file
 * is never spliced into a resumed download: the client gets the whole new file with 200.
 */
function ifRangeAllows(ifRange: string | undefined, v: Validators): boolean {
  if (ifRange === undefined) return true;
  const value = ifRange.trim();
  if (value.startsWith('"') || value.startsWith('W/')) return value === v.etag;
  return value === v.lastModified;
}

type Parsed = ByteRange[] | 'malformed' | 'unsatisfiable';

/**
 * RFC 9110 §14.1.2 `bytes=` ranges. Written here rather than with range-parser, which answers
 * unsatisfiable for a suffix longer than the file (the RFC says: the whole file) and compares the
 * unit case-sensitively. Empty list elements are skipped, as the list syntax allows.
 */
export function parseRangeHeader(size: number, header: string): Parsed {
  const match = /^bytes=(.*)$/is.exec(header.trim());
  if (!match) return 'malformed';
  const ranges: ByteRange[] = [];
  let seen = 0;
  for (const element of (match[1] ?? '').split(',')) {
    const spec = element.trim();
    if (spec === '') continue;
    const parts = /^(\d*)-(\d*)$/.exec(spec);
    if (!parts || (parts[1] === '' && parts[2] === '')) return 'malformed';
    seen += 1;
    const [, first = '', last = ''] = parts;
    if (first === '') {
      const suffix = Number(last);
      if (suffix > 0) ranges.push({ start: Math.max(0, size - suffix), end: size - 1 });
      continue;
    }
    const start = Number(first);
    const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
    if (start < size && (last === '' || Number(last) >= start)) ranges.push({ start, end });
  }
  if (seen === 0) return 'malformed';
  return ranges.length === 0 ? 'unsatisfiable' : ranges;
}

/**
 * Policies (documented in the README):
 * - a malformed header (`bytes=alpha`, `bytes=--2`, `bytes=1.5-3`) or another unit (`items=0-4`)
 *   is ignored: 200 with the whole file, as pillarjs/send and nginx do for unknown units;
 * - no satisfiable range (`bytes=len-`, `bytes=-0`, `bytes=5-1`) -> 416 with `Content-Range: bytes *\/len`;
 * - several ranges -> one multipart/byteranges 206, in the order asked, unless there are more than
 *   MAX_RANGES or they add up to more than the file, then 200 with the whole file (Go, nginx);
 * - an empty file always answers 200.
 */
export function decideRange(size: number, rangeHeader: string | undefined, ifRange: string | undefined, v: Validators): RangeDecision {
  if (rangeHeader === undefined || size === 0 || !ifRangeAllows(ifRange, v)) return { kind: 'full' };
  const ranges = parseRangeHeader(size, rangeHeader);
  if (ranges === 'malformed') return { kind: 'full' };
  if (ranges === 'unsatisfiable') return { kind: 'unsatisfiable' };
  if (ranges.length > MAX_RANGES) return { kind: 'full' };
  const total = ranges.reduce((sum, r) => sum + (r.end - r.start + 1), 0);
  if (total > size) return { kind: 'full' };
  return { kind: 'partial', ranges };
}
