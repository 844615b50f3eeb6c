// CDN_SIGNING=cloudfront end to end: a real media service (STORAGE=s3 on s3rver) redirects a member
// to a CloudFront signed URL, made with @aws-sdk/cloudfront-signer; a stand-in edge
// (tests/src/cloudfront-edge.ts) checks it with the public key by its own reading of the format,
// openssl checks the same signature independently, and the edge caches, serves ranges and purges.
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@media-site/media-service/config';
import { startTempMedia, raw, type TempMedia } from '@media-site/media-service/testing';
import { parseKeyRing, signDownloadUrl } from '@media-site/contracts/token';
import { purgeEventOf, runPurgeCommand } from '@media-site/contracts/purge';
import { CloudFrontOriginals, S3Originals } from '@media-site/storage';
import { startTestS3, type TestS3 } from '@media-site/storage/testing-s3';
import { cloudFrontBase64Decode, s3Origin, startCloudFrontEdge, type RunningEdge } from '../src/cloudfront-edge';

const run = promisify(execFile);
const KEYS = 'k1:cdn-cloudfront-test-secret-value';
const KEY_PAIR_ID = 'K2STANDINEDGE01';
const LIFETIME = 120;
const CLIP = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7 + 3) % 251));
const OTHER = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 11 + 1) % 251));
const CLIP_PATH = '/members/video/clip-1/clip-1001.mp4';
/** The PURGE_COMMAND docs/deploy.md gives for CloudFront invalidations, word for word. */
const INVALIDATION_COMMAND =
  'set -f; paths=; for u in "$@"; do case "$u" in /members/*) paths="$paths /${u#/members/}*";; esac; done; ' +
  '[ -z "$paths" ] || aws cloudfront create-invalidation --distribution-id EDFDVBD6EXAMPLE --paths $paths';

let dir: string;
let s3: TestS3;
let store: S3Originals;
let edge: RunningEdge;
let fx: TempMedia;
let privatePem: string;
let publicPem: string;
/** Origin requests the edge made (counted at the origin function, beside the edge's own stats). */
let originCalls = 0;
/** Seconds added to the edge's clock. */
let skew = 0;

const signed = (path: string) => signDownloadUrl(parseKeyRing(KEYS), { path, memberId: 3, expiresAt: Math.floor(Date.now() / 1000) + 600 });

/** The media service's redirect for `path` (GET or HEAD). */
async function redirectFor(path: string, method = 'GET'): Promise<URL> {
  const res = await raw(fx.media.url, signed(path), {}, method);
  expect(res.status).toBe(302);
  expect(res.headers['cache-control']).toBe('private, no-store');
  return new URL(String(res.headers.location));
}

function get(url: string | URL, headers: Record<string, string> = {}, method = 'GET') {
  const u = new URL(url);
  return raw(u.origin, u.pathname + u.search, headers, method);
}

/** The URL without CloudFront's signing parameters, as the canned policy's Resource names it. */
function resourceOf(url: URL): string {
  const kept = url.search
    .slice(1)
    .split('&')
    .filter((p) => !/^(?:Expires|Signature|Key-Pair-Id|Policy)=/.test(p));
  return `${url.origin}${url.pathname}${kept.length ? `?${kept.join('&')}` : ''}`;
}

/** CloudFront's base64 (`-` `_` `~` for `+` `=` `/`). */
const cfBase64 = (b: Buffer) => b.toString('base64').replace(/\+/g, '-').replace(/=/g, '_').replace(/\//g, '~');

/** Signs `policy` with openssl (not the library the service uses). */
async function opensslSign(policy: string): Promise<string> {
  const file = join(dir, `policy-${Date.now()}-${Math.random()}.json`);
  await writeFile(file, policy);
  const { stdout } = await run('openssl', ['dgst', '-sha1', '-sign', join(dir, 'key.pem'), file], { encoding: 'buffer' });
  return cfBase64(stdout);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cdn-cloudfront-'));
  await run('openssl', ['genrsa', '-out', join(dir, 'key.pem'), '2048']);
  await chmod(join(dir, 'key.pem'), 0o600);
  await run('openssl', ['rsa', '-in', join(dir, 'key.pem'), '-pubout', '-out', join(dir, 'pub.pem')]);
  privatePem = await readFile(join(dir, 'key.pem'), 'utf8');
  publicPem = await readFile(join(dir, 'pub.pem'), 'utf8');
  // The edge's origin requests carry a download's response-content-disposition (`filename*=UTF-8''`),
  // whose signature s3rver canonicalises differently from S3 (storage/src/testing-s3.ts).
  s3 = await startTestS3(0, 'originals');
  store = new S3Originals(s3.settings);
  for (const [relative, data] of [
    ['video/clip-1/clip-1001.mp4', CLIP],
    ['video/clip-2/clip-2001.mp4', OTHER],
  ] as const) {
    const file = join(dir, relative.replaceAll('/', '_'));
    await writeFile(file, data);
    await utimes(file, new Date('2026-01-02T03:04:05Z'), new Date('2026-01-02T03:04:05Z'));
    await store.put(relative, file);
  }
  edge = await startCloudFrontEdge({
    trustedKeys: { [KEY_PAIR_ID]: publicPem },
    // Members' originals come with `private, no-cache`: the distribution's cache policy keeps them anyway (minimum TTL > 0).
    minTtl: 3600,
    now: () => Math.floor(Date.now() / 1000) + skew,
    origin: s3Origin((key, forward) => {
      originCalls++;
      return store.presign(key, {
        method: 'GET',
        type: forward.get('response-content-type') ?? 'application/octet-stream',
        disposition: forward.get('response-content-disposition') ?? undefined,
        cacheControl: forward.get('response-cache-control') ?? 'no-cache',
      });
    }),
  });
  fx = await startTempMedia({
    MEDIA_TOKEN_KEYS: KEYS,
    ...s3.env,
    S3_PRESIGN_SECONDS: String(LIFETIME),
    CDN_SIGNING: 'cloudfront',
    CLOUDFRONT_URL: edge.url,
    CLOUDFRONT_KEY_PAIR_ID: KEY_PAIR_ID,
    CLOUDFRONT_PRIVATE_KEY_FILE: join(dir, 'key.pem'),
    PURGE_WEBHOOK_URL: `${edge.url}/purge`,
    PURGE_ATTEMPTS: '1',
  });
  // The first list is the baseline (no purge); later changes purge.
  fx.media.takedowns.replace([]);
}, 120_000);

afterAll(async () => {
  await fx?.stop();
  await edge?.close();
  store?.close();
  await s3?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('CDN_SIGNING=cloudfront: members are sent to CloudFront signed URLs', () => {
  it('a member is redirected to the distribution URL of the same key, canned policy, expiring after S3_PRESIGN_SECONDS', async () => {
    const before = Math.floor(Date.now() / 1000);
    const url = await redirectFor(CLIP_PATH);
    expect(url.origin).toBe(edge.url);
    expect(url.pathname).toBe('/video/clip-1/clip-1001.mp4');
    expect(url.searchParams.get('Key-Pair-Id')).toBe(KEY_PAIR_ID);
    expect(url.searchParams.get('Policy')).toBeNull();
    const expires = Number(url.searchParams.get('Expires'));
    expect(expires).toBeGreaterThanOrEqual(before + LIFETIME);
    expect(expires).toBeLessThanOrEqual(before + LIFETIME + 2);
    expect(url.searchParams.get('response-content-disposition')).toBe(
      `attachment; filename="clip-1001.mp4"; filename*=UTF-8''clip-1001.mp4`,
    );
    expect(url.searchParams.get('response-content-type')).toBe('video/mp4');
    expect(url.searchParams.get('Signature')).toMatch(/^[\w\-~]+$/);
  });

  it('openssl accepts the signature over the canned policy with the public key (independent of both signer and edge)', async () => {
    const url = await redirectFor(CLIP_PATH);
    const policy = `{"Statement":[{"Resource":"${resourceOf(url)}","Condition":{"DateLessThan":{"AWS:EpochTime":${url.searchParams.get('Expires')}}}}]}`;
    await writeFile(join(dir, 'policy'), policy);
    await writeFile(join(dir, 'sig.bin'), cloudFrontBase64Decode(url.searchParams.get('Signature')!)!);
    const verify = (file: string) =>
      run('openssl', ['dgst', '-sha1', '-verify', join(dir, 'pub.pem'), '-signature', join(dir, 'sig.bin'), file]).then(
        (r) => r.stdout.trim(),
        (err: { stdout?: string }) => String(err.stdout).trim(),
      );
    expect(await verify(join(dir, 'policy'))).toBe('Verified OK');
    await writeFile(join(dir, 'policy-other'), policy.replace('clip-1001.mp4', 'clip-1002.mp4'));
    expect(await verify(join(dir, 'policy-other'))).toBe('Verification failure');
  });

  it('the edge verifies and streams the original (a miss), then serves a Range and a fresh URL from its cache (hits, no origin request)', async () => {
    const calls = originCalls;
    const first = await get(await redirectFor(CLIP_PATH));
    expect(first.status).toBe(200);
    expect(first.headers['x-cache']).toBe('Miss from cloudfront');
    expect(first.body.equals(CLIP)).toBe(true);
    expect(first.headers['content-type']).toBe('video/mp4');
    // The download name arrives through the edge: S3 applied the forwarded override, the edge kept it.
    expect(first.headers['content-disposition']).toBe(`attachment; filename="clip-1001.mp4"; filename*=UTF-8''clip-1001.mp4`);
    expect(originCalls).toBe(calls + 1);

    const part = await get(await redirectFor(CLIP_PATH), { Range: 'bytes=1000-1999' });
    expect(part.status).toBe(206);
    expect(part.headers['x-cache']).toBe('Hit from cloudfront');
    expect(part.headers['content-range']).toBe(`bytes 1000-1999/${CLIP.length}`);
    expect(part.body.equals(CLIP.subarray(1000, 2000))).toBe(true);
    const tail = await get(await redirectFor(CLIP_PATH), { Range: 'bytes=-10' });
    expect(tail.status).toBe(206);
    expect(tail.body.equals(CLIP.subarray(CLIP.length - 10))).toBe(true);
    const again = await get(await redirectFor(CLIP_PATH));
    expect(again.headers['x-cache']).toBe('Hit from cloudfront');
    expect(again.body.equals(CLIP)).toBe(true);
    expect(originCalls).toBe(calls + 1);
    const outside = await get(await redirectFor(CLIP_PATH), { Range: `bytes=${CLIP.length}-` });
    expect(outside.status).toBe(416);
  });

  it('HEAD through the service gets a URL the edge answers with the length', async () => {
    const head = await get(await redirectFor(CLIP_PATH, 'HEAD'), {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(CLIP.length));
  });

  it('refuses, as CloudFront does with 403: another path, a tampered signature, an unknown key pair, no signature, an expired URL', async () => {
    const url = await redirectFor(CLIP_PATH);
    const code = async (u: string | URL) => {
      const res = await get(u);
      expect(res.status).toBe(403);
      return /<Code>(\w+)<\/Code>/.exec(res.body.toString())?.[1];
    };
    expect(await code(url.href.replace('/clip-1/clip-1001.mp4?', '/clip-2/clip-2001.mp4?'))).toBe('AccessDenied');
    const sig = url.searchParams.get('Signature')!;
    const forged = new URL(url);
    forged.searchParams.set('Signature', `${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`);
    expect(await code(forged)).toBe('AccessDenied');
    const otherDisposition = new URL(url);
    otherDisposition.searchParams.set('response-content-disposition', 'attachment; filename="x.exe"');
    expect(await code(otherDisposition)).toBe('AccessDenied');
    const later = new URL(url);
    later.searchParams.set('Expires', String(Number(url.searchParams.get('Expires')) + 3600));
    expect(await code(later)).toBe('AccessDenied');
    const wrongKey = new URL(url);
    wrongKey.searchParams.set('Key-Pair-Id', 'K2SOMEOTHERKEY1');
    expect(await code(wrongKey)).toBe('InvalidKey');
    expect(await code(`${edge.url}/video/clip-1/clip-1001.mp4`)).toBe('MissingKey');
    // Signed correctly by the same code, ten minutes ago: expired.
    const old = new CloudFrontOriginals(
      store,
      { baseUrl: edge.url, keyPairId: KEY_PAIR_ID, privateKey: privatePem },
      () => Date.now() - 600_000,
    );
    expect(
      await code(await old.presign('video/clip-1/clip-1001.mp4', { method: 'GET', type: 'video/mp4', cacheControl: 'no-cache' })),
    ).toBe('AccessDenied');
    // And a valid URL once the edge's clock is past its Expires.
    skew = LIFETIME + 5;
    try {
      expect(await code(url)).toBe('AccessDenied');
    } finally {
      skew = 0;
    }
    expect((await get(url)).status).toBe(200);
  });

  it('a custom policy (wildcard resource) signed with openssl works as a URL and as signed cookies; out of its resource it does not', async () => {
    const expires = Math.floor(Date.now() / 1000) + 300;
    const policy = `{"Statement":[{"Resource":"${edge.url}/video/clip-2/*","Condition":{"DateLessThan":{"AWS:EpochTime":${expires}}}}]}`;
    const signature = await opensslSign(policy);
    const query = `Policy=${cfBase64(Buffer.from(policy))}&Signature=${signature}&Key-Pair-Id=${KEY_PAIR_ID}`;
    const viaUrl = await get(`${edge.url}/video/clip-2/clip-2001.mp4?${query}`);
    expect(viaUrl.status).toBe(200);
    expect(viaUrl.body.equals(OTHER)).toBe(true);
    const cookie = `CloudFront-Policy=${cfBase64(Buffer.from(policy))}; CloudFront-Signature=${signature}; CloudFront-Key-Pair-Id=${KEY_PAIR_ID}`;
    const viaCookies = await get(`${edge.url}/video/clip-2/clip-2001.mp4`, { Cookie: cookie });
    expect(viaCookies.status).toBe(200);
    expect(viaCookies.headers['x-cache']).toBe('Hit from cloudfront');
    expect((await get(`${edge.url}/video/clip-1/clip-1001.mp4`, { Cookie: cookie })).status).toBe(403);
    const expired = `{"Statement":[{"Resource":"${edge.url}/video/clip-2/*","Condition":{"DateLessThan":{"AWS:EpochTime":${expires - 600}}}}]}`;
    const expiredQuery = `Policy=${cfBase64(Buffer.from(expired))}&Signature=${await opensslSign(expired)}&Key-Pair-Id=${KEY_PAIR_ID}`;
    expect((await get(`${edge.url}/video/clip-2/clip-2001.mp4?${expiredQuery}`)).status).toBe(403);
  });

  it('a takedown: the service refuses to sign (410) and its purge webhook drops the edge copy; a restore fetches anew', async () => {
    expect((await get(await redirectFor(CLIP_PATH))).headers['x-cache']).toBe('Hit from cloudfront');
    const purgesBefore = edge.purges.length;
    fx.media.takedowns.replace(['video/clip-1/']);
    try {
      expect((await raw(fx.media.url, signed(CLIP_PATH))).status).toBe(410);
      await expect.poll(() => edge.purges.length, { timeout: 10_000 }).toBe(purgesBefore + 1);
      expect(edge.purges.at(-1)!.prefixes).toEqual(['video/clip-1/']);
      expect(edge.keys().filter((k) => k.startsWith('/video/clip-1/'))).toEqual([]);
      expect(edge.keys().some((k) => k.startsWith('/video/clip-2/'))).toBe(true);
    } finally {
      fx.media.takedowns.replace([]);
    }
    const calls = originCalls;
    const back = await get(await redirectFor(CLIP_PATH));
    expect(back.status).toBe(200);
    expect(back.headers['x-cache']).toBe('Miss from cloudfront');
    expect(originCalls).toBe(calls + 1);
    // The purge endpoint takes only the webhook's shape.
    const bad = await fetch(`${edge.url}/purge`, { method: 'POST', body: '{"prefixes":"video/"}' });
    expect(bad.status).toBe(400);
  });

  it('configuration: CDN_SIGNING=cloudfront needs STORAGE=s3, the URL, the key id and a private key file only its owner can read', async () => {
    const base = { MEDIA_TOKEN_KEYS: KEYS, MEDIA_ROOT: dir, VARIANT_CACHE_DIR: join(dir, 'v') };
    expect(() => loadConfig({ ...base, CDN_SIGNING: 'cloudfront' })).toThrow(
      /CDN_SIGNING: cloudfront needs STORAGE=s3[\s\S]*CLOUDFRONT_URL: required[\s\S]*CLOUDFRONT_KEY_PAIR_ID: required[\s\S]*CLOUDFRONT_PRIVATE_KEY_FILE: required/,
    );
    const full = {
      ...base,
      ...s3.env,
      CDN_SIGNING: 'cloudfront',
      CLOUDFRONT_URL: 'https://d111111abcdef8.cloudfront.net',
      CLOUDFRONT_KEY_PAIR_ID: KEY_PAIR_ID,
    };
    expect(loadConfig({ ...full, CLOUDFRONT_PRIVATE_KEY_FILE: join(dir, 'key.pem') }).cdn).toMatchObject({
      baseUrl: 'https://d111111abcdef8.cloudfront.net',
      keyPairId: KEY_PAIR_ID,
    });
    expect(() => loadConfig({ ...full, CLOUDFRONT_PRIVATE_KEY_FILE: join(dir, 'missing.pem') })).toThrow(
      /CLOUDFRONT_PRIVATE_KEY_FILE: cannot read .*missing\.pem \(ENOENT\)/,
    );
    await writeFile(join(dir, 'open.pem'), privatePem, { mode: 0o644 });
    await chmod(join(dir, 'open.pem'), 0o644);
    expect(() => loadConfig({ ...full, CLOUDFRONT_PRIVATE_KEY_FILE: join(dir, 'open.pem') })).toThrow(
      /CLOUDFRONT_PRIVATE_KEY_FILE: .*open\.pem is readable by every user \(mode 644\)/,
    );
    await writeFile(join(dir, 'pub-only.pem'), publicPem, { mode: 0o600 });
    expect(() => loadConfig({ ...full, CLOUDFRONT_PRIVATE_KEY_FILE: join(dir, 'pub-only.pem') })).toThrow(/is not a PEM private key/);
    expect(() =>
      loadConfig({ ...full, CLOUDFRONT_URL: 'http://cdn.example.com', CLOUDFRONT_PRIVATE_KEY_FILE: join(dir, 'key.pem') }),
    ).toThrow(/CLOUDFRONT_URL: must be https/);
    expect(() => loadConfig({ ...full, CLOUDFRONT_KEY_PAIR_ID: 'k-1', CLOUDFRONT_PRIVATE_KEY_FILE: join(dir, 'key.pem') })).toThrow(
      /CLOUDFRONT_KEY_PAIR_ID/,
    );
  });

  it("the documented PURGE_COMMAND turns a purge's member URLs into CloudFront invalidation paths (a stand-in aws CLI records them)", async () => {
    const fake = join(dir, 'aws');
    await writeFile(fake, `#!/bin/sh\nprintf '%s\\n' "$@" > ${join(dir, 'aws-args')}\n`, { mode: 0o700 });
    await runPurgeCommand(
      INVALIDATION_COMMAND.replace('aws cloudfront', `${fake} cloudfront`),
      purgeEventOf('takedown', ['video/a b/', 'photos/set-1/']),
    );
    expect((await readFile(join(dir, 'aws-args'), 'utf8')).trim().split('\n')).toEqual([
      'cloudfront',
      'create-invalidation',
      '--distribution-id',
      'EDFDVBD6EXAMPLE',
      '--paths',
      '/video/a%20b/*',
      '/photos/set-1/*',
    ]);
  });
});
