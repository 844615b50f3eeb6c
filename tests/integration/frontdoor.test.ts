import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_TOKEN_KEYS, parseKeyRing, signDownloadUrl } from '@media-site/contracts/token';
import { repoRoot } from '../../scripts/lib/site';
import { startNginx, type RunningNginx } from '../src/nginx';
import { startStack, type Stack } from '../src/stack';
// node:http, not fetch: these tests must see compressed bodies as sent.
import { raw } from '@media-site/media-service/testing/http';

// The seeded site through the repo's nginx config: routing, caching headers, security headers,
// compression, request ids, limits and the thumbnail cache.
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ frontDoor: 'nginx' });
});
afterAll(async () => {
  await stack?.stop();
});

const get = (path: string, headers: Record<string, string> = {}) => raw(stack.url, path, headers);
const header = (res: { headers: Record<string, string | string[] | undefined> }, name: string) => String(res.headers[name] ?? '');

/** The app chunk index.html preloads (frontend/vite.config.ts): the entry itself is below gzip_min_length. */
async function appScript(): Promise<string> {
  const html = (await get('/')).body.toString();
  const src = /<link[^>]+rel="modulepreload"[^>]+href="(\/assets\/app-[^"]+\.js)"/.exec(html)?.[1];
  if (!src) throw new Error('no app chunk in index.html');
  return src;
}

describe('the SPA', () => {
  it.each(['/', '/photos?page=2', '/models/Model%20A1', '/ccbill', '/vod/3'])(
    'answers the deep link %s with index.html, not cached',
    async (path) => {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(header(res, 'content-type')).toMatch(/^text\/html/);
      expect(res.body.toString()).toMatch(/<div id="root">/);
      expect(header(res, 'cache-control')).toBe('no-cache');
    },
  );

  it('caches hashed assets for a year, immutable, and gzips JavaScript', async () => {
    const src = await appScript();
    const plain = await get(src);
    expect(plain.status).toBe(200);
    expect(header(plain, 'cache-control')).toBe('public, max-age=31536000, immutable');
    expect(header(plain, 'content-type')).toMatch(/javascript/);
    const zipped = await get(src, { 'Accept-Encoding': 'gzip' });
    expect(header(zipped, 'content-encoding')).toBe('gzip');
    expect(header(zipped, 'vary')).toMatch(/Accept-Encoding/);
    expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
    expect(zipped.body.length).toBeLessThan(plain.body.length);
  });

  it("preloads home's first answers with home's HTML only", async () => {
    const home = header(await get('/'), 'link');
    // The SPA's entry fetches exactly these (frontend/src/firstScreen/earlyAnswers.ts).
    expect(home).toBe('</api/updates/1>; rel=preload; as=fetch; crossorigin, </api/freephotos/1>; rel=preload; as=fetch; crossorigin');
    for (const path of ['/vod', '/index.html', '/photos?page=2']) expect(header(await get(path), 'link')).toBe('');
  });

  it('does not cache a missing asset for a year', async () => {
    const res = await get('/assets/no-such-chunk-0000.js');
    expect(res.status).toBe(404);
    expect(header(res, 'cache-control')).not.toMatch(/immutable/);
  });
});

describe('security headers', () => {
  it.each(['/ccbill', '/', '/api/updates/1', '/assets/missing.js'])('are on %s', async (path) => {
    const res = await get(path);
    const csp = header(res, 'content-security-policy');
    const directives = new Map(
      csp.split(';').map((d) => {
        const [name = '', ...values] = d.trim().split(/\s+/);
        return [name, values] as const;
      }),
    );
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(directives.get('default-src')).toEqual(["'self'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'self'"]);
    expect(directives.get('base-uri')).toEqual(["'self'"]);
    expect(directives.get('connect-src')?.[0]).toBe("'self'");
    if (stack.providerUrl) expect(directives.get('connect-src')).toContain(new URL(stack.providerUrl).origin);
    expect(header(res, 'x-content-type-options')).toBe('nosniff');
    expect(header(res, 'referrer-policy')).toBe('strict-origin-when-cross-origin');
    // Plain HTTP: no HSTS.
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('routing to the services', () => {
  it('proxies /api to the bff with the request id passed through and echoed once', async () => {
    const res = await get('/api/updates/1', { 'X-Request-Id': 'frontdoor-test-1' });
    expect(res.status).toBe(200);
    expect(header(res, 'content-type')).toMatch(/application\/json/);
    expect(Array.isArray(JSON.parse(res.body.toString()))).toBe(true);
    expect(res.headers['x-request-id']).toBe('frontdoor-test-1');
    const generated = await get('/api/updates/1');
    expect(header(generated, 'x-request-id')).toMatch(/^[0-9a-f]{32}$/);
  });

  it('writes one JSON access-log line per request, without query strings', async () => {
    await get('/api/photos/1?secret=not-logged', { 'X-Request-Id': 'frontdoor-log-1' });
    // The log is buffered (flushed every second).
    let lines: string[] = [];
    let entry: Record<string, unknown> | undefined;
    for (let i = 0; i < 50 && !entry; i += 1) {
      await new Promise((r) => setTimeout(r, 100));
      lines = (await readFile(join(stack.dataDir, 'nginx', 'access.log'), 'utf8')).trim().split('\n').filter(Boolean);
      entry = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((e) => e.request_id === 'frontdoor-log-1');
    }
    expect(entry).toMatchObject({ method: 'GET', path: '/api/photos/1', status: 200 });
    expect(typeof entry?.request_time).toBe('number');
    expect(entry?.upstream_time).toMatch(/^\d+\.\d+$/);
    expect(JSON.stringify(lines)).not.toContain('not-logged');
  });

  it('answers an unknown API path with the bff JSON 404 and a big body with JSON 413', async () => {
    const missing = await get('/api/nothing-here');
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body.toString()).error.code).toBeTruthy();
    const big = await fetch(`${stack.url}/api/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'x'.repeat(100_000), password: 'y' }),
    });
    expect(big.status).toBe(413);
    expect(((await big.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
  });

  it('proxies /members to the media service and sends member files by X-Accel-Redirect, ranges included', async () => {
    const videos = (await (await fetch(`${stack.url}/api/videos/1`)).json()) as Array<{ path: string }>;
    const folder = videos[0]?.path;
    expect(folder).toBeTruthy();
    const { download } = (await (await fetch(`${stack.url}/api/videos/prename/${folder}`)).json()) as { download: string };
    expect((await get(download)).status).toBe(401);

    const keys = parseKeyRing(DEV_TOKEN_KEYS);
    const url = signDownloadUrl(keys, { path: download, memberId: 1, expiresAt: Math.floor(Date.now() / 1000) + 3600 });
    const relative = decodeURIComponent(download.replace(/^\/members\//, ''));
    const onDisk = await readFile(join(stack.mediaRoot, relative));
    const whole = await get(url);
    expect(whole.status).toBe(200);
    expect(whole.headers['x-accel-redirect']).toBeUndefined();
    expect(header(whole, 'content-disposition')).toMatch(/^attachment;/);
    expect(whole.body.equals(onDisk)).toBe(true);

    const tail = await get(url, { Range: 'bytes=-100' });
    expect(tail.status).toBe(206);
    expect(header(tail, 'content-range')).toBe(`bytes ${onDisk.length - 100}-${onDisk.length - 1}/${onDisk.length}`);
    expect(tail.body.equals(onDisk.subarray(onDisk.length - 100))).toBe(true);
    // Offloaded responses carry the front door's headers too.
    expect(header(tail, 'x-content-type-options')).toBe('nosniff');
  });

  it('never exposes the internal file location', async () => {
    expect((await get('/_protected/video/anything.mp4')).status).toBe(404);
    expect((await get('/_viewer')).status).toBe(404);
  });

  it("answers a browser's page navigation to a photo's address with the viewer (the SPA), anything else with the file", async () => {
    const sets = (await (await fetch(`${stack.url}/api/photos/1`)).json()) as Array<{ path: string }>;
    const folder = sets[0]!.path;
    const { files } = (await (await fetch(`${stack.url}/api/photos/set/${folder}`)).json()) as { files: string[] };
    const photo = `/members/photos/${folder}/${files[0]}`;
    const keys = parseKeyRing(DEV_TOKEN_KEYS);
    const signed = (path: string) => signDownloadUrl(keys, { path, memberId: 1, expiresAt: Math.floor(Date.now() / 1000) + 3600 });
    const navigate = { 'Sec-Fetch-Dest': 'document', 'Sec-Fetch-Mode': 'navigate', Accept: 'text/html,*/*;q=0.8' };
    const isPage = (res: Awaited<ReturnType<typeof get>>) =>
      /^text\/html/.test(header(res, 'content-type')) && res.body.includes('<div id="root">');
    for (const [what, path, headers, page] of [
      ['a navigation', photo, navigate, true],
      ['a navigation by a browser too old for Sec-Fetch-*', photo, { Accept: 'text/html,application/xhtml+xml' }, true],
      ['a navigation to a free photo', '/members/freephotos/anything/01.jpg', navigate, true],
      ['an <img>', signed(photo), { 'Sec-Fetch-Dest': 'image', Accept: 'image/avif,image/webp,*/*' }, false],
      ['curl', signed(photo), {}, false],
      ['a download of the set (ZIP), even as a navigation', signed(`/members/photos/${folder}/${folder}.zip`), navigate, false],
      [
        'a navigation to a video file',
        signed(
          (
            await (
              await fetch(`${stack.url}/api/videos/prename/${(await (await fetch(`${stack.url}/api/videos/1`)).json())[0].path}`)
            ).json()
          ).download,
        ),
        navigate,
        false,
      ],
    ] as const) {
      const res = await get(path, headers);
      expect(isPage(res), what).toBe(page);
      expect(header(res, 'vary'), what).toMatch(/Sec-Fetch-Dest/);
      if (page) expect(header(res, 'cache-control'), what).toBe('private, no-cache');
      else expect(res.status, what).toBe(200);
    }
  });
});

describe('thumbnail cache', () => {
  it('keeps public variants per negotiated format and serves repeats from nginx', async () => {
    const sets = (await (await fetch(`${stack.url}/api/photos/1`)).json()) as Array<{ thumbnail: string }>;
    const thumb = `${sets[0]?.thumbnail}?w=320`;
    const webp = 'image/avif;q=0,image/webp,*/*;q=0.8';
    const first = await get(thumb, { Accept: 'image/webp,*/*' });
    expect(first.status).toBe(200);
    expect(header(first, 'content-type')).toBe('image/webp');
    expect(header(first, 'vary')).toMatch(/Accept/);
    expect(header(first, 'x-cache-status')).toMatch(/MISS|EXPIRED/);
    const again = await get(thumb, { Accept: 'image/webp,*/*' });
    expect(header(again, 'x-cache-status')).toBe('HIT');
    expect(again.body.equals(first.body)).toBe(true);

    const jpeg = await get(thumb, { Accept: 'image/jpeg' });
    expect(header(jpeg, 'content-type')).toBe('image/jpeg');
    expect(header(jpeg, 'x-cache-status')).not.toBe('HIT');
    expect(header(await get(thumb, { Accept: '*/*' }), 'x-cache-status')).toBe('HIT');
    // q=0 refuses a format: the front door's normalisation must agree with the media service.
    const refused = await get(thumb, { Accept: webp });
    expect(header(refused, 'content-type')).toBe('image/webp');
    expect(header(refused, 'x-cache-status')).toBe('HIT');
  });

  it('does not cache member-only images', async () => {
    const res = await get('/members/photos/none/1.jpg?w=320');
    expect(res.status).toBe(401);
    expect(res.headers['x-cache-status']).toBeUndefined();
  });
});

describe('rate limits and the HSTS switch', () => {
  let tight: RunningNginx;
  beforeAll(async () => {
    // A second front door on the same services with a small budget, so the test trips nginx's limit
    // before the bff's own per-minute limit.
    tight = await startNginx({
      bffUrl: stack.bffUrl,
      mediaUrl: stack.mediaUrl,
      spaDir: join(repoRoot, 'frontend/dist'),
      mediaRoot: stack.mediaRoot,
      vars: { LOGIN_RATE: '1r/m', LOGIN_BURST: '2', PAYMENT_RATE: '1r/m', PAYMENT_BURST: '1', HSTS: 'max-age=63072000; includeSubDomains' },
    });
  });
  afterAll(async () => {
    await tight?.stop();
  });

  it.each(['/api/login', '/api/process_payment'])('answers %s with a JSON 429 once the budget is spent', async (path) => {
    const statuses: number[] = [];
    let limited: Response | undefined;
    for (let i = 0; i < 10 && !limited; i += 1) {
      const res = await fetch(`${tight.url}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: 'nobody', password: 'wrong-password' }),
      });
      statuses.push(res.status);
      if (res.status === 429 && res.headers.get('retry-after') === '60') limited = res;
      else await res.arrayBuffer();
    }
    expect(limited, `statuses: ${statuses.join(',')}`).toBeDefined();
    expect(limited?.headers.get('content-type')).toMatch(/application\/json/);
    expect(((await limited?.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
    // Other API paths are not limited.
    expect((await fetch(`${tight.url}/api/updates/1`)).status).toBe(200);
  });

  it('limits the sign-in and payment paths in any letter case and with a trailing slash; the bff 404s the variants', async () => {
    // A front door of its own, so this test spends budgets nothing else touched.
    const variants = await startNginx({
      bffUrl: stack.bffUrl,
      mediaUrl: stack.mediaUrl,
      spaDir: join(repoRoot, 'frontend/dist'),
      mediaRoot: stack.mediaRoot,
      vars: { LOGIN_RATE: '1r/m', LOGIN_BURST: '2', PAYMENT_RATE: '1r/m', PAYMENT_BURST: '1' },
    });
    try {
      const post = async (path: string) => {
        const res = await fetch(`${variants.url}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
        await res.arrayBuffer();
        return res.status === 429 && res.headers.get('retry-after') === '60' ? 'front-door 429' : String(res.status);
      };
      for (const [group, paths] of [
        ['login', ['/api/LOGIN/', '/api/Login', '/api/login/', '/API/LOGIN', '/api/login']],
        ['payment', ['/api/Process_Payment/', '/api/GET_CCBILL_TOKEN', '/api/get_ccbill_back_token/', '/api/process_payment']],
      ] as const) {
        const answers: string[] = [];
        for (let i = 0; i < 8; i += 1) answers.push(`${paths[i % paths.length]} ${await post(paths[i % paths.length] ?? '')}`);
        // The budget (burst + 1) is shared by every spelling; what got through was refused by the bff.
        expect(answers.filter((a) => a.endsWith('front-door 429')).length, `${group}: ${answers.join(', ')}`).toBeGreaterThanOrEqual(
          8 - (group === 'login' ? 3 : 2),
        );
        for (const a of answers.filter((x) => !x.endsWith('front-door 429')))
          expect(a, group).toMatch(/^\/api\/(login|process_payment) (400|401|403)$|^\S+ 404$/);
      }
    } finally {
      await variants.stop();
    }
  });

  it('sends Strict-Transport-Security on every answer once HSTS is set', async () => {
    for (const path of ['/', '/api/updates/1', '/assets/missing.js']) {
      const res = await raw(tight.url, path);
      expect(res.headers['strict-transport-security']).toBe('max-age=63072000; includeSubDomains');
    }
  });
});
