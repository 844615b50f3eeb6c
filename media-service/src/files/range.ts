import { ifRangeHolds } from './conditional';
import type { Validators } from './conditional';
import type { ByteRange } from '@media-site/storage/originals';

/** More ranges than this in one request get the whole file (CVE-2011-3192 style floods); nginx `max_ranges 8`. */
export const MAX_RANGES = 8;

export type { ByteRange };

export type RangeDecision = { kind: 'full' } | { kind: 'partial'; ranges: ByteRange[] } | { kind: 'unsatisfiable' };

/** nginx's limit on a position (off_t): longer numbers are refused, as nginx does. */
const MAX_POSITION = '9223372036854775807';

const FULL: RangeDecision = { kind: 'full' };
const UNSATISFIABLE: RangeDecision = { kind: 'unsatisfiable' };

/** Reads a `bytes=` list left to right with nginx's grammar: digits, `-`, `,` and spaces (no tabs). */
class Cursor {
  i = 6; // after "bytes="
  constructor(private readonly s: string) {}

  get done(): boolean {
    return this.i >= this.s.length;
  }

  peek(): string | undefined {
    return this.s[this.i];
  }

  take(): string | undefined {
    const c = this.s[this.i];
    this.i += 1;
    return c;
  }

  skipSpaces(): void {
    while (this.s[this.i] === ' ') this.i += 1;
  }

  /** A decimal number, or null when there is none or it is past nginx's limit. */
  number(): number | null {
    const from = this.i;
    while (/\d/.test(this.s[this.i] ?? '')) this.i += 1;
    const digits = this.s.slice(from, this.i).replace(/^0+(?=\d)/, '');
    if (digits === '') return null;
    if (digits.length > MAX_POSITION.length || (digits.length === MAX_POSITION.length && digits > MAX_POSITION)) return null;
    // Above 2^53 the value is rounded, but any such position is past every file we serve.
    return Number(digits);
  }
}

/**
 * The same decisions nginx's range filter makes on a static file (`max_ranges 8`), so the direct
 * path and the X-Accel-Redirect path answer every Range header alike (README, "Range requests"):
 * - another unit (`items=0-4`), no `bytes=` prefix, or nothing after it (`bytes=`): ignored, 200;
 * - any syntax error in a `bytes=` list (`bytes=alpha`, `bytes=--2`, `bytes=0-4,`, `bytes=0-4,,6-9`,
 *   a tab, a position longer than 2^63-1): 416 with `Content-Range: bytes *\/len`;
 * - ends past the file are clamped, a suffix longer than the file is the whole file;
 * - ranges starting at or past the end (`bytes=len-`, `bytes=-0`, `bytes=5-1`) are dropped; none left: 416;
 * - more than MAX_RANGES ranges, or ranges adding up to more than the file: 200 with the whole file;
 * - an empty file: 200 to a range starting at 0 or a suffix, 416 to any other.
 */
export function parseRange(size: number, header: string): RangeDecision {
  if (header.length < 7 || header.slice(0, 6).toLowerCase() !== 'bytes=') return FULL;
  const cur = new Cursor(header);
  const ranges: ByteRange[] = [];
  let total = 0;
  for (;;) {
    cur.skipSpaces();
    let start: number;
    let end: number; // exclusive
    let openEnded = false;
    if (cur.peek() === '-') {
      cur.take();
      const suffix = cur.number();
      if (suffix === null) return UNSATISFIABLE;
      start = suffix < size ? size - suffix : 0;
      end = size;
    } else {
      const first = cur.number();
      if (first === null) return UNSATISFIABLE;
      start = first;
      cur.skipSpaces();
      if (cur.take() !== '-') return UNSATISFIABLE;
      cur.skipSpaces();
      openEnded = cur.done || cur.peek() === ',';
      if (openEnded) {
        end = size;
      } else {
        const last = cur.number();
        if (last === null) return UNSATISFIABLE;
        end = last >= size ? size : last + 1;
      }
    }
    if (!openEnded) {
      cur.skipSpaces();
      if (!cur.done && cur.peek() !== ',') return UNSATISFIABLE;
    }
    if (start < end) {
      ranges.push({ start, end: end - 1 });
      total += end - start;
      if (ranges.length > MAX_RANGES) return FULL;
    } else if (start === 0) {
      // Only an empty file gets here: nginx sends it whole.
      return FULL;
    }
    if (cur.take() !== ',') break;
  }
  if (ranges.length === 0) return UNSATISFIABLE;
  if (total > size) return FULL;
  return { kind: 'partial', ranges };
}

/** If-Range first (a failed one means the whole file, whatever the Range says), then the Range. */
export function decideRange(size: number, rangeHeader: string | undefined, ifRange: string | undefined, v: Validators): RangeDecision {
  if (rangeHeader === undefined || !ifRangeHolds(ifRange, v)) return FULL;
  return parseRange(size, rangeHeader);
}
