// A stand-in for a CloudFront edge, for tests (a test double, as tools/simulator is for the card
// provider). It checks CloudFront signed URLs and cookies itself, with the public keys of a
// "trusted key group", from its own reading of CloudFront's documented format (not with
// @aws-sdk/cloudfront-signer, the library the media service signs with), forwards a miss to the
// bucket as Origin Access Control would (a request signed for the bucket), caches whole objects and
// answers Range requests from the cache. What it does not prove about CloudFront: media-service/README.md,
// "CloudFront in front of the bucket".
import { BlockList, isIPv4, type AddressInfo } from 'node:net';
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/** The query parameters a signed URL adds; never part of the cache key nor sent to the origin. */
const SIGNING_PARAMS = new Set(['Expires', 'Policy', 'Signature', 'Key-Pair-Id', 'Hash-Algorithm']);
/** What one request may carry; CloudFront's own limit on a URL is 8,192 bytes. */
const URL_MAX = 8192;
const PURGE_BODY_MAX = 64 * 1024;

/** What the origin answered for one whole object. */
export interface OriginAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * Fetches one whole object from the origin: `key` is the decoded object key, `forward` the query
 * strings the origin request policy forwards (`response-*`).
 */
export type OriginFetch = (key: string, forward: URLSearchParams) => Promise<OriginAnswer>;

export interface EdgeOptions {
  /** The trusted key group: key pair id → public key (PEM). */
  trustedKeys: Record<string, string>;
  origin: OriginFetch;
  /** The cache policy's query strings (the cache key beside the path); the rest are dropped. */
  cacheKeyQuery?: string[];
  /** The origin request policy's query strings (forwarded to the origin). */
  forwardQuery?: string[];
  /** The cache policy's TTLs (seconds), CloudFront's defaults when unset: 0 / 86400 / 31536000. */
  minTtl?: number;
  defaultTtl?: number;
  maxTtl?: number;
  /** Larger objects are passed through, not cached. */
  maxObjectBytes?: number;
  /** Seconds since the epoch; tests move the clock. */
  now?: () => number;
  port?: number;
  /** The listening address (127.0.0.1; `0.0.0.0` where containers send the purge webhook). */
  host?: string;
}

export interface EdgeStats {
  hits: number;
  misses: number;
  originRequests: number;
  /** Refused requests, by CloudFront error code. */
  denied: Record<string, number>;
}

export interface RunningEdge {
  /** `http://127.0.0.1:port`, the distribution's base URL for CLOUDFRONT_URL. */
  url: string;
  stats: EdgeStats;
  /** Cache keys held now. */
  keys(): string[];
  /** The purge bodies received. */
  purges: { prefixes: string[]; urls: string[] }[];
  close(): Promise<void>;
}

interface Cached {
  headers: Record<string, string>;
  body: Buffer;
  storedAt: number;
  ttl: number;
}

/** CloudFront's URL-safe base64: `+` `=` `/` written as `-` `_` `~`. */
export function cloudFrontBase64Decode(value: string): Buffer | null {
  if (!/^[\w\-~]+$/.test(value)) return null;
  return Buffer.from(value.replace(/-/g, '+').replace(/_/g, '=').replace(/~/g, '/'), 'base64');
}

class Denied extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** `*` any run of characters, `?` exactly one: CloudFront's wildcards in a custom policy's Resource. */
function resourceMatches(pattern: string, url: string): boolean {
  const source = pattern
    .split('')
    .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`, 's').test(url);
}

interface Statement {
  Resource?: unknown;
  Condition?: {
    DateLessThan?: { 'AWS:EpochTime'?: unknown };
    DateGreaterThan?: { 'AWS:EpochTime'?: unknown };
    IpAddress?: { 'AWS:SourceIp'?: unknown };
  };
}

function parseCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) out.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  return out;
}

/** The raw query as pairs, keeping each value's encoding as sent (the signed resource is the URL as sent). */
function rawPairs(search: string): [string, string][] {
  if (!search) return [];
  return search.split('&').map((pair) => {
    const eq = pair.indexOf('=');
    return eq === -1 ? [pair, ''] : [pair.slice(0, eq), pair.slice(eq + 1)];
  });
}

const decodeQuery = (v: string) => decodeURIComponent(v.replace(/\+/g, ' '));

/**
 * Checks the request's signature (URL parameters first, then CloudFront-* cookies) against the URL
 * as sent; throws Denied as CloudFront would answer 403.
 */
function checkSignature(
  base: string,
  path: string,
  pairs: [string, string][],
  cookies: Map<string, string>,
  keys: Map<string, KeyObject>,
  now: number,
  clientIp: string,
): void {
  const fromQuery = new Map<string, string>();
  for (const [k, v] of pairs) if (SIGNING_PARAMS.has(k)) fromQuery.set(k, decodeQuery(v));
  const get = (name: string) => (fromQuery.size > 0 ? fromQuery.get(name) : cookies.get(`CloudFront-${name}`));
  const keyPairId = get('Key-Pair-Id');
  const signature = get('Signature');
  if (!keyPairId) throw new Denied('MissingKey', 'Missing Key-Pair-Id query parameter or cookie value');
  if (!signature) throw new Denied('AccessDenied', 'Access denied');
  const key = keys.get(keyPairId);
  if (!key) throw new Denied('InvalidKey', 'Unknown Key');
  const kept = pairs.filter(([k]) => !SIGNING_PARAMS.has(k));
  const resource = `${base}${path}${kept.length ? `?${kept.map(([k, v]) => `${k}=${v}`).join('&')}` : ''}`;
  let policy: string;
  let statement: Statement;
  const expires = get('Expires');
  const encodedPolicy = get('Policy');
  if (encodedPolicy !== undefined) {
    const bytes = cloudFrontBase64Decode(encodedPolicy);
    if (!bytes) throw new Denied('MalformedPolicy', 'Malformed Policy');
    policy = bytes.toString('utf8');
    let parsed: { Statement?: Statement[] };
    try {
      parsed = JSON.parse(policy) as { Statement?: Statement[] };
    } catch {
      throw new Denied('MalformedPolicy', 'Malformed Policy');
    }
    if (!Array.isArray(parsed.Statement) || parsed.Statement.length !== 1) throw new Denied('MalformedPolicy', 'Malformed Policy');
    statement = parsed.Statement[0]!;
    if (typeof statement.Resource === 'string' && !resourceMatches(statement.Resource, resource))
      throw new Denied('AccessDenied', 'Access denied');
  } else if (expires !== undefined) {
    if (!/^\d{1,12}$/.test(expires)) throw new Denied('AccessDenied', 'Access denied');
    // A canned policy is not sent: the edge rebuilds it from the URL, byte for byte as CloudFront documents it.
    policy = `{"Statement":[{"Resource":"${resource}","Condition":{"DateLessThan":{"AWS:EpochTime":${Number(expires)}}}}]}`;
    statement = { Condition: { DateLessThan: { 'AWS:EpochTime': Number(expires) } } };
  } else {
    throw new Denied('AccessDenied', 'Access denied');
  }
  const sig = cloudFrontBase64Decode(signature);
  const algorithm = get('Hash-Algorithm') === 'SHA256' ? 'RSA-SHA256' : 'RSA-SHA1';
  if (!sig || !verify(algorithm, Buffer.from(policy, 'utf8'), key, sig)) throw new Denied('AccessDenied', 'Access denied');
  const before = statement.Condition?.DateLessThan?.['AWS:EpochTime'];
  if (typeof before !== 'number') throw new Denied('MalformedPolicy', 'Malformed Policy');
  if (now >= before) throw new Denied('AccessDenied', 'Access denied');
  const after = statement.Condition?.DateGreaterThan?.['AWS:EpochTime'];
  if (typeof after === 'number' && now < after) throw new Denied('AccessDenied', 'Access denied');
  const cidr = statement.Condition?.IpAddress?.['AWS:SourceIp'];
  if (typeof cidr === 'string') {
    const [ip, bits] = cidr.split('/');
    const list = new BlockList();
    if (!ip || !isIPv4(ip)) throw new Denied('MalformedPolicy', 'Malformed Policy');
    list.addSubnet(ip, bits === undefined ? 32 : Number(bits), 'ipv4');
    if (!list.check(clientIp.replace(/^::ffff:/, ''), 'ipv4')) throw new Denied('AccessDenied', 'Access denied');
  }
}

/** `max-age` / `s-maxage` clamped to the policy's TTLs; no-cache/no-store/private keep nothing unless minTtl > 0 (CloudFront's rule). */
function ttlOf(cacheControl: string | undefined, minTtl: number, defaultTtl: number, maxTtl: number): number {
  const cc = (cacheControl ?? '').toLowerCase();
  if (/\b(?:no-cache|no-store|private)\b/.test(cc)) return minTtl;
  const shared = /\bs-maxage=(\d+)/.exec(cc) ?? /\bmax-age=(\d+)/.exec(cc);
  const asked = shared ? Number(shared[1]) : defaultTtl;
  return Math.min(maxTtl, Math.max(minTtl, asked));
}

/** One `bytes=` range against `size`: the inclusive span, 'whole' (none or several), or 'unsatisfiable'. */
function rangeOf(header: string | undefined, size: number): { start: number; end: number } | 'whole' | 'unsatisfiable' {
  if (!header) return 'whole';
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m) return 'whole';
  const [, a, b] = m;
  if (a === '' && b === '') return 'whole';
  let start: number;
  let end: number;
  if (a === '') {
    const suffix = Number(b);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(a);
    end = b === '' ? size - 1 : Math.min(Number(b), size - 1);
    if (b !== '' && Number(b) < start) return 'whole';
  }
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

function deny(res: ServerResponse, err: Denied): void {
  const body = `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${err.code}</Code><Message>${err.message}</Message></Error>`;
  res.writeHead(403, { 'Content-Type': 'text/xml', 'Content-Length': Buffer.byteLength(body), 'X-Cache': 'Error from cloudfront' });
  res.end(body);
}

function readBody(req: IncomingMessage, max: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > max) {
        resolve(null);
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export async function startCloudFrontEdge(options: EdgeOptions): Promise<RunningEdge> {
  const keys = new Map(Object.entries(options.trustedKeys).map(([id, pem]) => [id, createPublicKey(pem)]));
  const cacheKeyQuery = new Set(
    options.cacheKeyQuery ?? ['response-cache-control', 'response-content-disposition', 'response-content-type'],
  );
  const forwardQuery = new Set(options.forwardQuery ?? ['response-cache-control', 'response-content-disposition', 'response-content-type']);
  const minTtl = options.minTtl ?? 0;
  const defaultTtl = options.defaultTtl ?? 86_400;
  const maxTtl = options.maxTtl ?? 31_536_000;
  const maxObjectBytes = options.maxObjectBytes ?? 64 * 1024 * 1024;
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const cache = new Map<string, Cached>();
  const stats: EdgeStats = { hits: 0, misses: 0, originRequests: 0, denied: {} };
  const purges: RunningEdge['purges'] = [];
  let base = '';

  async function purge(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req, PURGE_BODY_MAX);
    let parsed: { prefixes?: unknown; urls?: unknown };
    try {
      if (!body) throw new Error('body over 64 KiB');
      parsed = JSON.parse(body.toString('utf8')) as typeof parsed;
    } catch (err) {
      res.writeHead(400, { 'Content-Type': 'text/plain' }).end(`bad purge body: ${(err as Error).message}`);
      return;
    }
    const strings = (v: unknown) => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : null);
    const prefixes = strings(parsed.prefixes ?? []);
    const urls = strings(parsed.urls ?? []);
    if (!prefixes || !urls) {
      res.writeHead(400, { 'Content-Type': 'text/plain' }).end('prefixes and urls must be lists of strings');
      return;
    }
    purges.push({ prefixes, urls });
    // A prefix is an object key prefix (`video/folder/`), so `/video/folder/...` on the distribution;
    // a URL is a path prefix as it is.
    const paths = [...prefixes.map((p) => `/${p.split('/').map(encodeURIComponent).join('/')}`), ...urls];
    let dropped = 0;
    for (const key of [...cache.keys()]) {
      if (paths.some((p) => key.startsWith(p))) {
        cache.delete(key);
        dropped++;
      }
    }
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ dropped }));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = req.url ?? '/';
    if (req.method === 'POST' && target === '/purge') return purge(req, res);
    if (target.length > URL_MAX) {
      res.writeHead(414).end();
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      deny(res, new Denied('MethodNotAllowed', 'This distribution is not configured to allow the HTTP request method that was used'));
      return;
    }
    const q = target.indexOf('?');
    const path = q === -1 ? target : target.slice(0, q);
    const pairs = rawPairs(q === -1 ? '' : target.slice(q + 1));
    try {
      checkSignature(base, path, pairs, parseCookies(req.headers.cookie), keys, now(), req.socket.remoteAddress ?? '');
    } catch (err) {
      if (!(err instanceof Denied)) throw err;
      stats.denied[err.code] = (stats.denied[err.code] ?? 0) + 1;
      deny(res, err);
      return;
    }
    let objectKey: string;
    try {
      objectKey = path.slice(1).split('/').map(decodeURIComponent).join('/');
    } catch {
      res.writeHead(400).end();
      return;
    }
    const keyed = pairs.filter(([k]) => cacheKeyQuery.has(k)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const cacheKey = `${path}?${keyed.map(([k, v]) => `${k}=${v}`).join('&')}`;
    let entry = cache.get(cacheKey);
    if (entry && now() - entry.storedAt >= entry.ttl) {
      cache.delete(cacheKey);
      entry = undefined;
    }
    let xCache = 'Hit from cloudfront';
    if (entry) stats.hits++;
    else {
      xCache = 'Miss from cloudfront';
      stats.misses++;
      const forward = new URLSearchParams();
      for (const [k, v] of pairs) if (forwardQuery.has(k)) forward.append(k, decodeQuery(v));
      stats.originRequests++;
      const answer = await options.origin(objectKey, forward);
      if (answer.status !== 200) {
        res.writeHead(answer.status, { ...answer.headers, 'X-Cache': 'Error from cloudfront' }).end(answer.body);
        return;
      }
      entry = { headers: answer.headers, body: answer.body, storedAt: now(), ttl: 0 };
      const ttl = ttlOf(answer.headers['cache-control'], minTtl, defaultTtl, maxTtl);
      if (ttl > 0 && answer.body.length <= maxObjectBytes) cache.set(cacheKey, { ...entry, ttl });
    }
    const size = entry.body.length;
    const headers: Record<string, string | number> = {
      ...entry.headers,
      'Accept-Ranges': 'bytes',
      'X-Cache': xCache,
      Via: '1.1 stand-in.cloudfront.net (CloudFront)',
    };
    if (xCache.startsWith('Hit')) headers.Age = now() - entry.storedAt;
    delete headers['content-length'];
    const range = rangeOf(req.headers.range, size);
    if (range === 'unsatisfiable') {
      res.writeHead(416, { ...headers, 'Content-Range': `bytes */${size}`, 'Content-Length': 0 }).end();
      return;
    }
    const [status, body] =
      range === 'whole'
        ? [200, entry.body]
        : [206, entry.body.subarray(range.start, range.end + 1), (headers['Content-Range'] = `bytes ${range.start}-${range.end}/${size}`)];
    res.writeHead(status, { ...headers, 'Content-Length': body.length });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain', 'X-Cache': 'Error from cloudfront' });
      res.end(`origin: ${(err as Error).message}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    stats,
    keys: () => [...cache.keys()],
    purges,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The bucket as an origin behind Origin Access Control: every origin request is signed for the bucket
 * (here a presigned GET by the storage layer's own S3 client, with the forwarded `response-*`
 * overrides); the bucket answers nothing unsigned.
 */
export function s3Origin(presign: (key: string, forward: URLSearchParams) => Promise<string>): OriginFetch {
  return async (key, forward) => {
    const res = await fetch(await presign(key, forward), { signal: AbortSignal.timeout(30_000) });
    const headers: Record<string, string> = {};
    for (const name of ['content-type', 'content-disposition', 'cache-control', 'etag', 'last-modified', 'content-length'])
      if (res.headers.get(name)) headers[name] = res.headers.get(name)!;
    return { status: res.status, headers, body: Buffer.from(await res.arrayBuffer()) };
  };
}
