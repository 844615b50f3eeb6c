// Hostile input, property-based (fast-check, bounded runs): API path parameters, media paths, Range
// headers and payment fields get only 2xx/3xx/4xx answers, JSON errors without internals, no file
// from outside the media root, and ranges answered exactly as RFC 9110 says. Against the whole
// stack (nginx in front) and a media service of its own that streams (no offload), on the same tree.
import { writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningMedia } from '@media-site/media-service/server';
import { startStack, type Stack } from '../src/stack';
import { rangeHeaders } from '../src/range-headers';
import { figure, recordFigures, type Figure } from './lib/figures';
import { send, type Sample } from './lib/http';

const RUNS = Number(process.env.HOSTILE_RUNS ?? 300);
const SECRET = 'reliability-secret-outside-the-media-root';
const figures: Figure[] = [];

let stack: Stack;
let media: RunningMedia;
let publicFile: { url: string; bytes: Buffer };

beforeAll(async () => {
  stack = await startStack({
    env: {
      RATE_LIMIT_PAYMENT_PER_MINUTE: '100000',
      PAYMENT_RATE: '60000r/m',
      PAYMENT_BURST: '5000',
      RATE_LIMIT_LOGIN_PER_MINUTE: '100000',
    },
  });
  // Beside the media root: no path may ever reach it.
  writeFileSync(join(stack.dataDir, 'secret.txt'), SECRET);
  // Imported after the seed: the media service blocks sharp's SVG loader, which the seed renders with.
  const { loadConfig } = await import('@media-site/media-service/config');
  const { startMedia } = await import('@media-site/media-service/server');
  media = await startMedia(
    loadConfig({
      MEDIA_PORT: '0',
      MEDIA_ROOT: stack.mediaRoot,
      VARIANT_CACHE_DIR: join(stack.dataDir, 'own-variants'),
      LOG_LEVEL: 'silent',
    }),
  );
  const updates = (await (await fetch(`${stack.baseUrl}/api/updates/1`)).json()) as { thumbnail: string }[];
  const thumb = updates[0]?.thumbnail ?? '';
  publicFile = { url: thumb, bytes: readFileSync(join(stack.mediaRoot, thumb.replace(/^\/members\//, ''))) };
});

afterAll(async () => {
  await media?.close();
  await stack?.stop();
  recordFigures(31, 'Hostile input (property-based)', figures);
});

/** Bytes rendered into a path segment: safe characters as they are, everything else %XX. */
const segment = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .uint8Array({ minLength: 0, maxLength: 24 })
      .map((bytes) =>
        [...bytes]
          .map((b) => (/[\w.~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, '0')}`))
          .join(''),
      ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '..',
      '.',
      '%2e%2e',
      '%2E%2e',
      '%252e%252e',
      '%00',
      '%2f',
      '%5c',
      '..%2f..',
      '%c0%ae%c0%ae',
      '%ff',
      '%',
      '%zz',
      'secret.txt',
      '',
      '~',
      'A'.repeat(300),
      '0',
      '-1',
      '1e3',
      '10001',
      '99999999999999999999',
    ),
  },
  { weight: 2, arbitrary: fc.stringMatching(/^[\w.-]{1,40}$/) },
);

function checkAnswer(s: Sample, where: string): void {
  expect(s.error, `${where} ${s.path}: no answer`).toBeUndefined();
  expect(s.status, `${where} ${s.path}`).toBeGreaterThanOrEqual(200);
  expect(s.status, `${where} ${s.path}: ${s.body?.slice(0, 200)}`).toBeLessThan(500);
  expect(s.body ?? '').not.toContain(SECRET);
  expect(s.body ?? '', 'no stack trace').not.toMatch(/\n[ \t]+at [^\n(]+\([^\n)]*:\d+:\d+\)/);
  // nginx refuses a malformed request line or URL (bad %-escape, `..` above the root) itself, with its
  // own small HTML 400 before any location runs; every other error is the JSON body.
  const nginxOwn = where === 'nginx' && s.status === 400 && (s.body ?? '').startsWith('<html>');
  if (s.status >= 400 && !nginxOwn) {
    expect(() => JSON.parse(s.body ?? ''), `${where} ${s.path}: ${s.body?.slice(0, 100)}`).not.toThrow();
    expect(JSON.parse(s.body ?? '{}')).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
  }
}

async function property(name: string, arb: fc.Arbitrary<unknown>, check: (v: never) => Promise<void>): Promise<void> {
  const started = performance.now();
  let ran = 0;
  await fc.assert(
    fc.asyncProperty(arb, async (v) => {
      ran++;
      await check(v as never);
    }),
    { numRuns: RUNS, seed: Number(process.env.HOSTILE_SEED ?? 20260101) },
  );
  figures.push(
    figure(
      name,
      `${ran} generated cases, 0 answers >= 500 (${Math.round(performance.now() - started)} ms)`,
      '2xx/3xx/4xx only, invariants held',
      true,
    ),
  );
}

describe('hostile input', () => {
  it('API path parameters: 2xx/4xx JSON, never 5xx, through nginx and at the bff', async () => {
    const routes = [
      'photos',
      'photos-by-date',
      'videos',
      'videos-by-date',
      'vod',
      'updates',
      'models',
      'modelname',
      'search',
      'thumbnails',
      'freethumbnails',
      'videos/prename',
      'vod/prename',
    ];
    await property(
      'API path parameters (13 routes; nginx and bff)',
      fc.tuple(fc.constantFrom(...routes), fc.array(segment, { minLength: 1, maxLength: 3 }), fc.boolean()),
      async ([route, segs, viaNginx]: [string, string[], boolean]) => {
        const path = `/api/${route}/${segs.join('/')}`;
        const s = await send(viaNginx ? stack.baseUrl : stack.bffUrl, { path }, { keepBody: true });
        checkAnswer(s, viaNginx ? 'nginx' : 'bff');
      },
    );
  });

  it('media paths: nothing outside the root, never 5xx', async () => {
    const families = ['photosthumbs', 'videothumbs', 'vodthumbs', 'freephotos', 'photos', 'video', 'vod', 'nothing', '..', '%2e%2e'];
    await property(
      'media paths (10 families, traversal tokens; nginx and service)',
      fc.tuple(
        fc.constantFrom(...families),
        fc.array(segment, { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        fc.constantFrom('', '?w=320', '?w=7', '?w='),
      ),
      async ([family, segs, viaNginx, query]: [string, string[], boolean, string]) => {
        const path = `/members/${family}/${segs.join('/')}${query}`;
        const s = await send(viaNginx ? stack.baseUrl : media.url, { path }, { keepBody: true });
        checkAnswer(s, viaNginx ? 'nginx' : 'media');
      },
    );
  });

  it('Range headers: 200 whole, 206 exact slices, 416 with */length; never 5xx', async () => {
    const size = publicFile.bytes.length;
    const header = rangeHeaders(size);
    await property(
      'Range headers on a public file (service streaming, and nginx)',
      fc.tuple(header, fc.boolean()),
      async ([range, viaNginx]: [string, boolean]) => {
        const res = await fetch(`${viaNginx ? stack.baseUrl : media.url}${publicFile.url}`, { headers: { Range: range } });
        const body = Buffer.from(await res.arrayBuffer());
        expect([200, 206, 416], `${range}`).toContain(res.status);
        if (res.status === 200) expect(body.equals(publicFile.bytes), range).toBe(true);
        if (res.status === 416) expect(res.headers.get('content-range')).toBe(`bytes */${size}`);
        if (res.status === 206 && !(res.headers.get('content-type') ?? '').startsWith('multipart/byteranges')) {
          const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(res.headers.get('content-range') ?? '');
          expect(m, range).not.toBeNull();
          const [start, end, total] = [Number(m?.[1]), Number(m?.[2]), Number(m?.[3])];
          expect(total).toBe(size);
          expect(body.equals(publicFile.bytes.subarray(start, end + 1)), range).toBe(true);
        }
      },
    );
  });

  it('payment fields: refused with a JSON 4xx, never 5xx', async () => {
    const text = fc.oneof(
      fc.string({ maxLength: 80 }),
      fc.constantFrom('', ' ', 'a'.repeat(5000), '<script>', "' OR 1=1 --", '\u0000', 'ä'.repeat(70), '../../etc', '4111111111111111'),
    );
    const value = fc.oneof(
      text,
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(text, { maxLength: 3 }),
      fc.dictionary(text, text, { maxKeys: 3 }),
    );
    const body = fc.oneof(
      fc.record({ username: value, password: value, vod: value }, { requiredKeys: [] }),
      fc.record(
        {
          accessToken: value,
          paymentToken: value,
          vod: value,
          formData: fc.oneof(value, fc.record({ username: value, password: value, email: value }, { requiredKeys: [] })),
        },
        { requiredKeys: [] },
      ),
      fc.jsonValue({ maxDepth: 3 }),
    );
    const steps = ['/api/get_ccbill_token', '/api/get_ccbill_back_token', '/api/process_payment', '/api/login'];
    await property(
      'payment and sign-in fields (4 endpoints, arbitrary JSON)',
      fc.tuple(fc.constantFrom(...steps), body, fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded')),
      async ([path, json, type]: [string, unknown, string]) => {
        const s = await send(
          stack.baseUrl,
          { path, method: 'POST', headers: { Origin: stack.baseUrl, 'Content-Type': type }, body: JSON.stringify(json) ?? '' },
          { keepBody: true },
        );
        checkAnswer(s, 'nginx');
      },
    );
  });
});
