import { forEachTrigram, Postings, Slices } from './postings';

/** One searchable row; `text` is the folded haystack (the search_text column). */
export interface IndexedRow<Row> {
  row: Row;
  text: string;
}

// Texts are joined with a character no search term can hold (terms refuse control characters), so
// a match never spans two rows.
const SEPARATOR = '\u0000';

/**
 * Rows in result order (the order they were loaded in) plus, for every trigram of UTF-16 code
 * units, the ascending positions of the rows containing it. A substring of >= 3 code units can only
 * occur in a row that holds all of its trigrams, so the rarest posting list bounds the candidates;
 * ascending positions keep the answer in load order and let a search stop at its limit. The texts
 * live in one string (`starts[p]` is where row p's text begins) so shorter needles are found by
 * `indexOf` over it.
 */
export class TrigramIndex<Row> {
  private constructor(
    private readonly rows: readonly Row[],
    private readonly joined: string,
    private readonly starts: Uint32Array,
    private readonly postings: Postings,
  ) {}

  get size(): number {
    return this.rows.length;
  }

  /**
   * Builds in slices of about `sliceMs`, yielding to the event loop between them: indexing 100,000
   * rows is a few hundred ms of CPU, which must not stall the requests this process serves meanwhile.
   */
  static async build<Row>(input: ReadonlyArray<IndexedRow<Row>>, sliceMs = 8): Promise<TrigramIndex<Row>> {
    const texts = input.map((r) => r.text);
    const postings = await Postings.build(texts, new Slices(sliceMs));
    // One more entry than rows, so row p always ends at starts[p + 1] - 1.
    const starts = new Uint32Array(texts.length + 1);
    let offset = 0;
    texts.forEach((text, pos) => {
      starts[pos] = offset;
      offset += text.length + 1;
    });
    starts[texts.length] = offset;
    return new TrigramIndex(
      input.map((r) => r.row),
      texts.join(SEPARATOR) + SEPARATOR,
      starts,
      postings,
    );
  }

  /** Every row, in load order. */
  get all(): readonly Row[] {
    return this.rows;
  }

  /** The first `limit` rows (in load order) whose text contains `needle` (already folded). */
  find(needle: string, limit: number): Row[] {
    return this.findAll([needle], limit);
  }

  /**
   * The first `limit` rows (in load order) whose text contains every one of `needles` (already
   * folded), each anywhere: words in any order. The trigrams of all needles together narrow the
   * candidates; needles of 1–2 code units are checked on each candidate.
   */
  findAll(needles: readonly string[], limit: number): Row[] {
    const words = needles.filter((n) => n.length > 0);
    if (words.length === 0 || limit <= 0) return [];
    const holdsAll = (pos: number) => {
      const text = this.text(pos);
      return words.every((w) => text.includes(w));
    };
    const keys = new Set<number>();
    for (const word of words) forEachTrigram(word, (key) => keys.add(key));
    const positions =
      keys.size === 0
        ? this.scan(
            words.reduce((a, b) => (b.length > a.length ? b : a)),
            limit,
            holdsAll,
          )
        : this.lookup(keys, limit, holdsAll);
    return positions.map((p) => this.rows[p]!);
  }

  /** Bytes held by the posting lists (the row strings are counted by the caller's heap figures). */
  get postingBytes(): number {
    return this.postings.bytes;
  }

  private text(pos: number): string {
    return this.joined.substring(this.starts[pos]!, this.starts[pos + 1]! - 1);
  }

  // 1–2 code units have no trigram: find occurrences in the joined texts, in row order. Short
  // needles are common, so this usually stops early; one that matches nothing is a single indexOf
  // over every text (bounded by the total text length).
  private scan(needle: string, limit: number, accept: (pos: number) => boolean): number[] {
    const found: number[] = [];
    let from = 0;
    while (found.length < limit) {
      const at = this.joined.indexOf(needle, from);
      if (at < 0) break;
      const pos = rowAt(this.starts, at);
      if (accept(pos)) found.push(pos);
      from = this.starts[pos + 1]!;
    }
    return found;
  }

  private lookup(keys: ReadonlySet<number>, limit: number, accept: (pos: number) => boolean): number[] {
    const lists: Uint32Array[] = [];
    for (const key of keys) {
      const list = this.postings.get(key);
      if (!list) return [];
      lists.push(list);
    }
    lists.sort((a, b) => a.length - b.length);
    const [rarest, ...others] = lists as [Uint32Array, ...Uint32Array[]];
    const cursors = others.map(() => 0);
    const found: number[] = [];
    for (let i = 0; i < rarest.length && found.length < limit; i++) {
      const pos = rarest[i]!;
      let inAll = true;
      for (let k = 0; k < others.length && inAll; k++) {
        cursors[k] = seek(others[k]!, cursors[k]!, pos);
        inAll = others[k]![cursors[k]!] === pos;
      }
      // Holding every trigram is necessary, not sufficient ("abcd" and "bcde" make "abcde" candidates).
      if (inAll && accept(pos)) found.push(pos);
    }
    return found;
  }
}

/** The row whose text holds offset `at` of the joined texts: the last p with starts[p] <= at. */
function rowAt(starts: Uint32Array, at: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo + 1 < hi) {
    const mid = (lo + hi) >>> 1;
    if (starts[mid]! <= at) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** The first index >= from whose value is >= target (galloping, then binary search). */
function seek(list: Uint32Array, from: number, target: number): number {
  if (from >= list.length || list[from]! >= target) return from;
  let step = 1;
  let lo = from;
  let hi = from + 1;
  while (hi < list.length && list[hi]! < target) {
    lo = hi;
    step *= 2;
    hi = from + step;
  }
  hi = Math.min(hi, list.length);
  while (lo + 1 < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! < target) lo = mid;
    else hi = mid;
  }
  return hi;
}
