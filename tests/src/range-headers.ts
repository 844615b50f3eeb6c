import fc from 'fast-check';

/**
 * `Range` header values for a file of `size` bytes, the property tests' generator (media-http-parity
 * compares the media service's answers with nginx's, hostile-input checks the answers themselves):
 * positions about the file's ends, beyond any integer and below zero; open, suffix and junk specs;
 * one to twelve specs in odd units and separators; and now and then arbitrary printable text.
 */
export function rangeHeaders(size: number): fc.Arbitrary<string> {
  const pos = fc.oneof(
    fc.nat({ max: size + 10 }),
    fc.constantFrom(0, size - 1, size, 2 ** 53, 9223372036854775807n, 1e20),
    fc.integer({ min: -5, max: 5 }),
  );
  const spec = fc.oneof(
    fc.tuple(pos, pos).map(([a, b]) => `${a}-${b}`),
    pos.map((a) => `${a}-`),
    pos.map((b) => `-${b}`),
    fc.constantFrom('', '-', '--1', '1.5-3', 'a-b', ' 0-1', '0-1 ', '0 - 1', '0x0-0x10', '\t0-1'),
  );
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .tuple(
          fc.constantFrom('bytes', 'BYTES', 'Bytes', 'items', 'bytes '),
          fc.array(spec, { minLength: 1, maxLength: 12 }),
          fc.constantFrom(',', ', ', ' ,', ',,'),
        )
        .map(([unit, specs, sep]) => `${unit}=${specs.join(sep)}`),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 60 }).map((s) => s.replace(/[^\x20-\x7e]/g, '')) },
  );
}
