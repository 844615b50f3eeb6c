import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runOpsCommand } from '@media-site/ops/cli';
import { ROUTE_INPUTS, type RouteInput } from './inputs';
import { ORIGIN, signIn, startAccountKit, type AccountKit } from '../../test/account-kit';

/**
 * A fuzz pass over every /api input, generated from the route schemas (inputs.ts) with
 * fast-check: values the schema accepts, near misses, hostile strings and anything JSON can carry,
 * sent as path segments, query strings and bodies, signed in. No answer may be a 5xx. Bounded by
 * run count and by time (FUZZ_MS in all); the seed is printed on a failure to replay it.
 */
const RUNS = 40;
/** Routes whose well-formed input costs a password hash (scrypt, ~0.1-0.4 s each): fewer runs. */
const HASHING_RUNS = 4;
const FUZZ_MS = 18_000;
const PROVIDER_ADDRESS = '64.38.240.17';
const PROXY_SECRET = randomBytes(24).toString('hex');

const HOSTILE = [
  '',
  ' ',
  '..',
  '%00',
  '\u0000',
  '\u202e',
  'a@' + '.'.repeat(15_800) + ' ',
  'a'.repeat(20_000),
  '/'.repeat(300),
  '__proto__',
  'constructor',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '1e309',
  '-0',
  'NaN',
  '0x10',
  '😀'.repeat(50),
  'R-0000000000',
  '/members/../etc/passwd',
];

type Checks = Array<{ _zod: { def: { check?: string; pattern?: RegExp } } }>;

/** Strings the schema's pattern accepts, when it has one, else strings of about its length. */
function stringsFor(schema: z.ZodString): fc.Arbitrary<string> {
  const pattern = ((schema.def.checks ?? []) as unknown as Checks).map((c) => c._zod.def.pattern).find((p) => p instanceof RegExp);
  const max = Math.min(schema.maxLength ?? 80, 600);
  // fast-check cannot generate from an `i` pattern: without the flag it generates a subset.
  const shaped = pattern
    ? fc.stringMatching(new RegExp(pattern.source, pattern.flags.replace('i', '')))
    : fc.string({ minLength: schema.minLength ?? 0, maxLength: max });
  return fc.oneof(
    { arbitrary: shaped, weight: 4 },
    { arbitrary: fc.string({ maxLength: max + 2, unit: 'binary' }), weight: 2 },
    { arbitrary: fc.constantFrom(...HOSTILE), weight: 2 },
  );
}

/** Values for a schema: mostly its shape (so the checks past the first are reached), sometimes anything. */
function valuesFor(schema: z.ZodType, asText = false): fc.Arbitrary<unknown> {
  const anything = asText
    ? fc.oneof(fc.string({ unit: 'binary' }), fc.constantFrom(...HOSTILE))
    : fc.oneof(fc.anything(), fc.constantFrom(...HOSTILE));
  let shaped: fc.Arbitrary<unknown>;
  if (schema instanceof z.ZodObject) {
    const shape = schema.shape as Record<string, z.ZodType>;
    shaped = fc.record(Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, valuesFor(v, asText)])), { requiredKeys: [] });
    // A form's extra fields (formData is .loose()), and keys that mean something to JavaScript.
    shaped = fc
      .tuple(
        shaped,
        fc.dictionary(fc.constantFrom('__proto__', 'constructor', 'extra', 'price'), valuesFor(z.string(), asText), { maxKeys: 2 }),
      )
      .map(([a, b]) => ({ ...b, ...(a as object) }));
  } else if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) shaped = valuesFor(schema.unwrap() as z.ZodType, asText);
  else if (schema instanceof z.ZodPipe) shaped = valuesFor(schema.in as z.ZodType, asText);
  else if (schema instanceof z.ZodString) shaped = stringsFor(schema);
  else if (schema instanceof z.ZodEnum) shaped = fc.oneof(fc.constantFrom(...(schema.options as string[])), stringsFor(z.string()));
  else if (schema instanceof z.ZodNumber) {
    const numbers = fc.oneof(
      fc.integer(),
      fc.double({ noNaN: true }),
      fc.constantFrom(0, -1, 86_400, 86_401, 1e308, Number.MAX_SAFE_INTEGER + 2),
    );
    shaped = asText ? fc.oneof(numbers.map(String), fc.string()) : numbers;
  } else if (schema instanceof z.ZodRecord)
    shaped = fc.dictionary(
      fc.oneof(fc.string(), fc.constantFrom('reason', 'X-attempt', 'transactionId')),
      fc.oneof(fc.string({ unit: 'binary' }), fc.double(), fc.anything()),
    );
  else shaped = anything;
  return fc.oneof({ arbitrary: shaped, weight: 5 }, { arbitrary: anything, weight: 1 });
}

/** A path segment as a browser or a script would send it; never throws on a lone surrogate. */
function segment(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  return [...text].map((ch) => (ch.length === 1 && /[\ud800-\udfff]/.test(ch) ? '%ED%A0%80' : encodeURIComponent(ch))).join('') || '%20';
}

function queryString(value: unknown): string {
  if (value === null || typeof value !== 'object') return segment(value);
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(value)) {
    const text = typeof v === 'string' ? v : (JSON.stringify(v) ?? '');
    params.append(k, text.replace(/[\ud800-\udfff]/g, '\ufffd'));
  }
  return params.toString();
}

interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  params: Map<string, z.ZodType>;
  query?: z.ZodType;
  body?: z.ZodType;
}

/** Every /api route: those in ROUTE_INPUTS with their schemas, and those that take no input (sent junk anyway). */
function routes(): Route[] {
  const byRoute = new Map<string, Route>();
  const route = (spec: string) => {
    const [method, path] = spec.split(' ') as [Route['method'], string];
    let r = byRoute.get(spec);
    if (!r) byRoute.set(spec, (r = { method, path, params: new Map() }));
    return r;
  };
  for (const input of ROUTE_INPUTS as RouteInput[]) {
    for (const spec of input.routes) {
      const r = route(spec);
      if (input.from === 'param') r.params.set(input.segment ?? '', input.schema);
      else r[input.from] = input.schema;
    }
  }
  for (const spec of ['GET /api/me', 'GET /api/account', 'GET /api/positions', 'GET /api/payment-config', 'GET /api/login-challenge'])
    route(spec);
  // Last: they end the fuzzing member's session.
  for (const spec of ['POST /api/account/sign-out-everywhere', 'POST /api/logout']) route(spec);
  return [...byRoute.values()];
}

describe('fuzz: every /api input, generated from its schema', () => {
  let kit: AccountKit;
  let cookie = '';
  const started = Date.now();
  beforeAll(async () => {
    kit = await startAccountKit('sqlite', {
      RATE_LIMIT_USERNAME_PER_MINUTE: '100000',
      RATE_LIMIT_POSITION_PER_MINUTE: '100000',
      WEBHOOK_PROXY_SECRET: PROXY_SECRET,
    });
    const code = await runOpsCommand(['member', 'add', 'fuzz_member', '--password', 'correct horse'], {
      env: {},
      knex: kit.db.knex,
      out: () => {},
      err: () => {},
    });
    expect(code).toBe(0);
    cookie = (await signIn(kit, 'fuzz_member')).cookie;
  });
  afterAll(() => kit?.close());

  for (const r of routes()) {
    const spec = `${r.method} ${r.path}`;
    it(`${spec}: no 5xx`, async () => {
      const parts = fc.record({
        params: fc.record(Object.fromEntries([...r.params].map(([name, schema]) => [name, valuesFor(schema, true)]))),
        query: r.query ? valuesFor(r.query, true) : fc.option(fc.dictionary(fc.string(), fc.string()), { nil: undefined }),
        body: r.body ? valuesFor(r.body) : fc.option(fc.anything(), { nil: undefined }),
      });
      const hashing = /login|password|process_payment|get_ccbill_token/.test(r.path);
      const left = FUZZ_MS - (Date.now() - started);
      await fc.assert(
        fc.asyncProperty(parts, async ({ params, query, body }) => {
          const path = r.path.replace(/:(\w+)/g, (_, name: string) => segment((params as Record<string, unknown>)[name]));
          const url = query === undefined ? path : `${path}?${queryString(query)}`;
          const method = r.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
          let req = kit.request[method](url).set({ Origin: ORIGIN, Cookie: cookie });
          if (r.path === '/api/ccbill/webhook')
            req = req.set({ 'X-Forwarded-For': PROVIDER_ADDRESS, 'X-Webhook-Proxy-Secret': PROXY_SECRET });
          if (body !== undefined && r.method !== 'GET')
            req = req.set('Content-Type', 'application/json').send(JSON.stringify(body) ?? 'null');
          const res = await req;
          expect(
            res.status,
            `${r.method} ${url.slice(0, 300)} ${JSON.stringify(body)?.slice(0, 300)} → ${res.text.slice(0, 200)}`,
          ).toBeLessThan(500);
        }),
        // At least 2 s per route: fast-check reports an interrupt before the first run as a failure, even unmarked.
        { numRuns: hashing ? HASHING_RUNS : RUNS, interruptAfterTimeLimit: Math.max(left / 4, 2_000), markInterruptAsFailure: false },
      );
    });
  }
});
