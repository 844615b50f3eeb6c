import { setImmediate as yieldToEventLoop } from 'node:timers/promises';

/** Yields to the event loop once the current slice has run for `ms`. */
export class Slices {
  private started = performance.now();

  constructor(private readonly ms: number) {}

  async pause(): Promise<void> {
    if (performance.now() - this.started < this.ms) return;
    await yieldToEventLoop();
    this.started = performance.now();
  }
}

const SMALL = 1024;
const LARGE_BASE = 2 ** 30;

/**
 * A trigram of UTF-16 code units as one number. Trigrams of units below 1024 (Latin, Greek,
 * Cyrillic…) pack into 30 bits, a small integer V8 hashes and stores without allocating; the rest
 * take an exact double above 2^30.
 */
export function trigramKey(a: number, b: number, c: number): number {
  if (a < SMALL && b < SMALL && c < SMALL) return (a << 20) | (b << 10) | c;
  return LARGE_BASE + (a * 65536 + b) * 65536 + c;
}

export function forEachTrigram(text: string, visit: (key: number) => void): void {
  for (let i = 0; i + 2 < text.length; i++) visit(trigramKey(text.charCodeAt(i), text.charCodeAt(i + 1), text.charCodeAt(i + 2)));
}

/**
 * Every trigram's ascending row positions, all in one Uint32Array. Built in two passes (count, then
 * fill) so building allocates a few large arrays instead of one growing array per trigram: the
 * garbage of millions of pushes cost tens of ms of GC pauses per 100,000 rows.
 */
export class Postings {
  private constructor(
    private readonly slotOf: ReadonlyMap<number, number>,
    private readonly begins: Uint32Array,
    private readonly ends: Uint32Array,
    private readonly positions: Uint32Array,
  ) {}

  static async build(texts: readonly string[], slices: Slices): Promise<Postings> {
    const slotOf = new Map<number, number>();
    let counts: Uint32Array = new Uint32Array(4096);
    let slots = 0;
    for (let pos = 0; pos < texts.length; pos++) {
      forEachTrigram(texts[pos]!, (key) => {
        let slot = slotOf.get(key);
        if (slot === undefined) {
          slot = slots++;
          slotOf.set(key, slot);
          if (slot === counts.length) counts = grow(counts);
        }
        counts[slot]!++;
      });
      if (pos % 256 === 255) await slices.pause();
    }
    // Counts include a trigram repeated within one row; the fill keeps it once, so a list may end early.
    const begins = new Uint32Array(slots);
    let total = 0;
    for (let slot = 0; slot < slots; slot++) {
      begins[slot] = total;
      total += counts[slot]!;
    }
    const ends = begins.slice();
    const positions = new Uint32Array(total);
    for (let pos = 0; pos < texts.length; pos++) {
      forEachTrigram(texts[pos]!, (key) => {
        const slot = slotOf.get(key)!;
        const end = ends[slot]!;
        // Rows are filled in ascending order, so a repeat within one row is always the last entry.
        if (end === begins[slot] || positions[end - 1] !== pos) {
          positions[end] = pos;
          ends[slot] = end + 1;
        }
      });
      if (pos % 256 === 255) await slices.pause();
    }
    return new Postings(slotOf, begins, ends, positions);
  }

  /** The ascending positions of the rows holding `key`; undefined when none does. */
  get(key: number): Uint32Array | undefined {
    const slot = this.slotOf.get(key);
    return slot === undefined ? undefined : this.positions.subarray(this.begins[slot], this.ends[slot]);
  }

  get bytes(): number {
    return this.positions.byteLength + this.begins.byteLength * 2;
  }
}

function grow(counts: Uint32Array): Uint32Array {
  const bigger = new Uint32Array(counts.length * 2);
  bigger.set(counts);
  return bigger;
}
