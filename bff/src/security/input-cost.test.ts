import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EMAIL, USERNAME } from '@media-site/contracts/member-rules';
import { REFERENCE_PATTERN } from '@media-site/db/moderation';
import { ROUTE_INPUTS } from '../routes/api/inputs';

/**
 * No input to an /api schema costs more than a bounded amount of work. The main measure
 * is a count: no check runs after a failed length check (at most one issue per field), so no
 * pattern ever sees more than its field's bound. Patterns that run over unbounded values are
 * linear by lint (eslint-plugin-regexp's no-super-linear-* rules). The 50 ms per parse below is
 * only a regression guard for the quadratic blow-ups seen (0.35-0.46 s), not a benchmark; the
 * event-loop figures come from `npm run bench:event-loop`.
 */
const PARSE_BUDGET_MS = 50;

/** Worst cases for the patterns in use: long runs of the characters they repeat, then a rejecting tail. */
const ATTACKS: Array<[string, string]> = [
  ['"a@" + 15,800 dots + " " (the payload that once held the event loop 0.35 s)', `a@${'.'.repeat(15_800)} `],
  ['"a@" + "a." × 8,000 + " "', `a@${'a.'.repeat(8_000)} `],
  ['100 KB of "a"', 'a'.repeat(100_000)],
  ['16 KB of "@"', '@'.repeat(16_000)],
  ['16 KB of "/" + newline', `${'/'.repeat(16_000)}\n`],
  ['16 KB of spaces', ' '.repeat(16_000)],
  ['16 KB of tabs and newlines', '\t\n\r'.repeat(5_400)],
  ['"1-" × 8,000 + "x" (digit runs)', `${'1-'.repeat(8_000)}x`],
  ['"http://" + 16 KB + " "', `http://${'a'.repeat(16_000)} `],
  ['"R-" + 16 KB of A', `R-${'A'.repeat(16_000)}`],
  ['16 KB of "=" + "!"', `${'='.repeat(16_000)}!`],
  ['16 KB of "_-" + "!"', `${'_-'.repeat(8_000)}!`],
  ['control characters', '\u0000\u0007\u001b\u007f\u0085'.repeat(3_200)],
  ['16 KB of "é" and combining marks', 'e\u0301é'.repeat(5_400)],
  ['surrogates and a lone half', `${'😀'.repeat(4_000)}\ud800`],
];

/** A value of the schema's shape with every string field (nested too) set to `s`. */
function fill(schema: z.ZodType, s: string): unknown {
  if (schema instanceof z.ZodObject)
    return Object.fromEntries(Object.entries(schema.shape as Record<string, z.ZodType>).map(([k, v]) => [k, fill(v, s)]));
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) return fill(schema.unwrap() as z.ZodType, s);
  if (schema instanceof z.ZodPipe) return fill(schema.in as z.ZodType, s);
  // The webhook body: any keys, the free-text ones go through a pattern.
  if (schema instanceof z.ZodRecord)
    return { reason: s, failureReason: s, transactionId: s, 'X-attempt': s, attempt: s, [s.slice(0, 200)]: s };
  return s;
}

function timedParse(schema: z.ZodType, input: unknown) {
  const start = performance.now();
  const result = schema.safeParse(input);
  return { result, ms: performance.now() - start };
}

describe('input cost: every /api schema under its worst cases', () => {
  for (const { name, schema } of ROUTE_INPUTS) {
    it(`${name}: bounded work, and no check after a failed length check`, () => {
      for (const [label, attack] of ATTACKS) {
        const { result, ms } = timedParse(schema, fill(schema, attack));
        if (!result.success) {
          const perField = new Map<string, number>();
          for (const issue of result.error.issues) perField.set(issue.path.join('.'), (perField.get(issue.path.join('.')) ?? 0) + 1);
          // Two issues on one field mean a pattern or refinement ran after its length check failed.
          for (const [field, count] of perField) expect(count, `${name}.${field} on ${label}`).toBe(1);
        }
        expect(ms, `${name} on ${label}`).toBeLessThan(PARSE_BUDGET_MS);
      }
    });
  }

  it('refuses the 15.9 KB e-mail payload at the e-mail length bound without running the pattern', () => {
    const payment = ROUTE_INPUTS.find((i) => i.name === 'processPaymentBody')?.schema;
    if (!payment) throw new Error('processPaymentBody is not listed');
    const result = payment.safeParse({
      accessToken: 'a'.repeat(43),
      paymentToken: 'tok12345',
      formData: { username: 'someone', password: 'correct horse', email: `a@${'.'.repeat(15_800)} ` },
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.code])).toEqual([['formData.email', 'too_big']]);
  });
});

describe('shared patterns stay linear on 64 KB', () => {
  const patterns: Array<[string, RegExp]> = [
    ['EMAIL', EMAIL],
    ['USERNAME', USERNAME],
    ['REFERENCE_PATTERN', REFERENCE_PATTERN],
  ];
  for (const [name, pattern] of patterns) {
    it(name, () => {
      for (const [label, attack] of ATTACKS) {
        const long = attack.length < 64_000 ? attack.slice(0, -1).repeat(Math.ceil(64_000 / attack.length)) + attack.slice(-1) : attack;
        const start = performance.now();
        pattern.test(long);
        expect(performance.now() - start, `${name} on ${label}`).toBeLessThan(PARSE_BUDGET_MS);
      }
    });
  }

  it('EMAIL still accepts ordinary addresses and refuses malformed ones', () => {
    for (const ok of ['a@b.co', 'first.last+tag@mail.example.org', 'x_y@sub.domain.museum']) expect(EMAIL.test(ok), ok).toBe(true);
    for (const bad of ['a@b', 'a@@b.c', 'a b@c.d', 'a@b.c ', '@b.c', 'a@.b.c', 'a@b..c', 'a@b.c.'])
      expect(EMAIL.test(bad), bad).toBe(false);
    // What could reach a mail header as more than one address: control characters and address syntax.
    for (const bad of [
      'a@b.c\r\nBcc: x@y.z',
      'a\u0000b@c.de',
      'a@b.c\u0085',
      'a\u007f@b.cd',
      'g:x@y.zz;',
      'a,b@c.de',
      'a@b.cd,e',
      '"a"@b.cd',
      'a<b@c.de',
      'a(b)@c.de',
      'a\\b@c.de',
    ])
      expect(EMAIL.test(bad), bad).toBe(false);
  });
});
