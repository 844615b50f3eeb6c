import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { S3Settings } from './s3';

interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}
type S3rverClass = new (options: {
  address: string;
  port: number;
  directory: string;
  silent: boolean;
  resetOnClose: boolean;
  configureBuckets: { name: string }[];
}) => S3rverInstance;

export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** What STORAGE=s3 needs to reach this server. */
  env: Record<string, string>;
  settings: S3Settings;
  stop(): Promise<void>;
}

/** One source text of s3rver and what replaces it; each must be there once (s3rver not changed under us). */
type Correction = [from: string, to: string];

const CORRECTIONS: Record<string, Correction[]> = {
  // SigV4 canonical request, as S3 and the SDK build it:
  'lib/middleware/authentication.js': [
    // Query values: RFC 3986 (every byte but A-Za-z0-9-_.~), not encodeURIComponent, which leaves
    // '()*! as they are: a presigned `response-content-disposition` with `filename*=UTF-8''…`
    // failed its signature on s3rver and works on S3. The encoder is s3rver's own (it uses it for paths).
    ['[param, value].map(encodeURIComponent)', '[param, value].map(encodeURIComponentRFC3986)'],
    // A bucket-level path-style request keeps its trailing `/` (`GET /bucket/?list-type=2`, as SDK
    // v3 sends ListObjectsV2): s3rver dropped it, so every listing failed its signature.
    [
      'canonicalizedResource = canonicalizedResource\n',
      "if (ctx.params.bucket && !ctx.params.key && ctx.path.endsWith('/')) canonicalizedResource += '/';\ncanonicalizedResource = canonicalizedResource\n",
    ],
  ],
  // ListObjectsV2 continuation tokens were DES-encrypted, which Node's OpenSSL 3 refuses (a 500 on
  // any listing with a next page); AES-128-CBC with the same 8-byte IV prefix, still opaque.
  'lib/controllers/bucket.js': [
    ["crypto.createCipheriv('des', key, iv)", "crypto.createCipheriv('aes-128-cbc', Buffer.alloc(16, 'S3RVER'), Buffer.concat([iv, iv]))"],
    [
      "crypto.createDecipheriv('des', key, iv)",
      "crypto.createDecipheriv('aes-128-cbc', Buffer.alloc(16, 'S3RVER'), Buffer.concat([iv, iv]))",
    ],
  ],
};

/**
 * Loads s3rver's modules named in CORRECTIONS with those corrections, before s3rver itself
 * requires them, so the test server behaves as S3 does where these tests depend on it (README,
 * "Media in object storage"); throws if a corrected text is no longer there.
 */
function loadCorrectedS3rver(require: NodeJS.Require): void {
  for (const [relative, corrections] of Object.entries(CORRECTIONS)) {
    const file = require.resolve(`@20minutes/s3rver/${relative}`);
    if (require.cache[file]) continue;
    let source = readFileSync(file, 'utf8');
    for (const [from, to] of corrections) {
      if (source.split(from).length !== 2) throw new Error(`${file}: the s3rver code to correct is not there once: ${from}`);
      source = source.replace(from, to);
    }
    const patched = new Module(file) as Module & { _compile(code: string, filename: string): void; loaded: boolean };
    patched.filename = file;
    patched.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(dirname(file));
    patched._compile(source, file);
    patched.loaded = true;
    require.cache[file] = patched;
  }
}

export interface LocalS3Options {
  /** Address to listen on (127.0.0.1 by default; 0.0.0.0 in a container). */
  address?: string;
  port: number;
  bucket?: string;
  /** Where the objects live. A temporary folder, removed on stop, when not given. */
  directory?: string;
}

/**
 * An S3-compatible server in this process (s3rver, the maintained @20minutes fork: real HTTP,
 * SigV4 header and presigned-query signatures checked against S3RVER/S3RVER, expiry checked,
 * objects on disk), with one bucket. For tests, for `npm start` with STORAGE=s3 and no S3_ENDPOINT,
 * and for the multi-host compose overlay's stand-in bucket; never a production store (fixed keys).
 */
export async function startLocalS3(options: LocalS3Options): Promise<TestS3> {
  const { address = '127.0.0.1', port, bucket = 'originals' } = options;
  const require = createRequire(import.meta.url);
  loadCorrectedS3rver(require);
  const S3rver = require('@20minutes/s3rver') as S3rverClass;
  const owned = options.directory === undefined;
  const directory = options.directory ?? (await mkdtemp(join(tmpdir(), 's3rver-')));
  await mkdir(directory, { recursive: true });
  // No resetOnClose: s3rver's reset uses rmdirSync's recursive option, gone in Node 25; stop() removes the folder.
  const server = new S3rver({
    address,
    port,
    directory,
    silent: true,
    resetOnClose: false,
    configureBuckets: [{ name: bucket }],
  });
  const listening = await server.run();
  const endpoint = `http://${address === '0.0.0.0' ? '127.0.0.1' : address}:${listening.port}`;
  const env = {
    STORAGE: 's3',
    S3_ENDPOINT: endpoint,
    S3_BUCKET: bucket,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'true',
  };
  const settings: S3Settings = {
    endpoint,
    bucket,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
    presignSeconds: 60,
  };
  return {
    endpoint,
    bucket,
    env,
    settings,
    stop: async () => {
      await server.close();
      if (owned) await rm(directory, { recursive: true, force: true });
    },
  };
}

/** For tests: startLocalS3 on 127.0.0.1:`port` in a temporary folder. */
export function startTestS3(port: number, bucket = 'originals'): Promise<TestS3> {
  return startLocalS3({ port, bucket });
}
