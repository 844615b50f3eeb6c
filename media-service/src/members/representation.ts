import { once } from 'node:events';
import { basename, extname } from 'node:path';
import { Readable } from 'node:stream';
import type { Context } from 'koa';
import mime from 'mime-types';
import { parseRenditionDownloadName } from '@media-site/contracts/download-name';
import { TooManyObjects, type PresigningOriginals, type StoredOriginal } from '@media-site/storage/originals';
import { resolveMediaFile, type MediaPath } from '@media-site/storage/paths';
import { StorageUnavailable } from '@media-site/storage/s3';
import type { Access } from '../access/policy';
import { AppError, notFound } from '../errors';
import { FAMILY_RULES } from '../families';
import { attachmentDisposition, inlineDisposition } from '../files/disposition';
import { answer, fileEtag, fileRepresentation, type Representation } from '../files/send';
import { bucketSetZip, CrcCache, isSetZip, setZip } from '../files/set-zip';
import { VARIANT_TYPES, negotiateFormat, parseWidth } from '../variants/format';
import type { VariantService, VariantSource } from '../variants/service';
import { missingUntilRelease, one, type AskedFile } from './access';

/** "Which representation, sent how": original, rendition, variant or set ZIP; bytes, X-Accel-Redirect or a presigned redirect. */
export interface RepresentationDeps {
  /** MEDIA_ROOT after realpath, so symlink checks compare like with like. */
  realRoot: string;
  variants: VariantService;
  offload: { prefix: string } | null;
  /** STORAGE=s3: every family comes from the bucket (presigned redirects, streamed objects, variants and set ZIPs read through it); null: the local tree. */
  originals?: PresigningOriginals | null;
}

// Browsers keep a public thumbnail 5 minutes, then revalidate (ETag, a 304 from the front door's
// cache): that bounds how long a taken-down thumbnail lingers in a browser that already has it.
// Shared caches (a CDN an operator puts in front) keep it 5 s, as nginx does, for the takedown bound.
const PUBLIC_CACHE = 'public, max-age=300, s-maxage=5';
// The original standing in for a variant (cache disk full): cached briefly, by nginx and browsers
// alike, so the resized variant takes over soon after there is room again.
const STAND_IN_CACHE = 'public, max-age=60';
// Members' files revalidate each time, so a revoked token stops them (a 304 is cheap).
const PRIVATE_CACHE = 'private, no-cache';
// An edge URL's file: a CDN keeps it (keyed by path, token checked at the edge) up to an hour; a
// takedown reaches it sooner through the purge hook (src/access/purge.ts), at the latest after that hour.
const EDGE_CACHE = 'public, max-age=300, s-maxage=3600';
/**
 * Set by nginx's public-families location, which caches what it receives: nginx never stores an
 * X-Accel-Redirect answer (it follows it first), so a public file asked for with this header is sent
 * as bytes even with MEDIA_OFFLOAD=nginx, and nginx serves it from its cache afterwards. Only public
 * files: a member file never takes this path, whoever sends the header.
 */
const FRONT_CACHE_HEADER = 'X-Front-Cache';
/**
 * STORAGE=s3: a public file (thumbnails, free photos, previews) up to this size is streamed from the
 * bucket by the service; a larger one is a presigned redirect unless nginx asked to cache it.
 */
export const BUCKET_STREAM_MAX = 1024 * 1024;

const badWidth = () => new AppError('bad_parameter', 'w must be one of 160, 320, 480, 640, 960, 1280, on images only');

/** `?w=`: a variant width, for a family that has variants; null when not asked. */
export function askedWidth(ctx: Context, path: MediaPath): number | null {
  const w = one(ctx.query.w);
  if (w === undefined) return null;
  const width = parseWidth(w);
  if (width === null || !FAMILY_RULES[path.family].variants) throw badWidth();
  return width;
}

function contentType(relative: string): string {
  return mime.lookup(extname(relative)) || 'application/octet-stream';
}

function cacheControlFor(access: Access, edge: boolean, standIn: boolean): string {
  if (access.kind !== 'public') return PRIVATE_CACHE;
  if (standIn) return STAND_IN_CACHE;
  return edge ? EDGE_CACHE : PUBLIC_CACHE;
}

/** Content-Disposition of a file sent under its own name (FamilyRules.naming). */
function dispositionFor(path: MediaPath, name: string): string | undefined {
  const { naming } = FAMILY_RULES[path.family];
  if (naming === 'download') return attachmentDisposition(name);
  if (naming === 'played') return inlineDisposition(`${path.rest[0]}-${name}`);
  return undefined;
}

/**
 * `?w=`: answers with the resized variant (true), or returns false when there is none to send (the
 * cache disk is full) and the original stands in for it.
 */
async function sendVariant(
  ctx: Context,
  variants: VariantService,
  source: VariantSource,
  width: number,
  cacheControl: string,
): Promise<boolean> {
  const format = negotiateFormat(ctx.get('Accept') || undefined);
  const variant = await variants.get(source, width, format);
  if (!variant) return false;
  const { data, key } = variant;
  answer(
    ctx,
    {
      size: data.length,
      etag: `"v-${key.slice(0, 40)}"`,
      lastModified: new Date(source.stat.mtimeMs),
      type: VARIANT_TYPES[format],
      read: ({ start, end }) => data.subarray(start, end + 1),
    },
    { cacheControl, vary: 'Accept' },
  );
  return true;
}

const storageUnavailable = () =>
  new AppError('storage_unavailable', 'Media storage is not answering; retry shortly', { 'Retry-After': '2' });

async function headOrUnavailable(remote: PresigningOriginals, relative: string) {
  try {
    return await remote.head(relative);
  } catch (err) {
    if (err instanceof StorageUnavailable) throw storageUnavailable();
    throw err;
  }
}

/** A bucket object as a Representation: the ETag and Last-Modified the local tree's copy (same size, kept mtime) gives. */
function objectRepresentation(remote: PresigningOriginals, object: StoredOriginal, type: string): Representation {
  return {
    size: object.size,
    etag: fileEtag(object),
    lastModified: new Date(object.mtimeMs),
    type,
    read: (range) => remote.read(object.relative, range),
  };
}

/**
 * The bucket's first answer before ours: a GetObject that fails (the bucket went down after the
 * HeadObject) is a 503 rather than a 200 cut short. Bodies built from buffers first (multipart
 * ranges) are not primed.
 */
async function primed(ctx: Context): Promise<void> {
  if (!(ctx.body instanceof Readable)) return;
  try {
    await once(ctx.body, 'readable');
  } catch (err) {
    ctx.body.destroy();
    if (err instanceof StorageUnavailable) throw storageUnavailable();
    throw err;
  }
}

/**
 * STORAGE=s3, after the access and takedown checks (every family is in the bucket, media-service/README.md
 * "Media in object storage"): a variant is made here from the object read through storage; a public
 * file (not an edge URL) is streamed when it is small or nginx asked to cache it (X-Front-Cache:
 * store), with this service's Range and conditional handling; anything else is a `302` to a
 * presigned URL of that one object, valid S3_PRESIGN_SECONDS, and the client sends its Range (and
 * If-Range, If-None-Match) to the bucket.
 */
async function fromObjectStorage(
  ctx: Context,
  deps: RepresentationDeps,
  remote: PresigningOriginals,
  asked: AskedFile,
  access: Access,
  width: number | null,
): Promise<void> {
  const { path, edge } = asked;
  const { file, downloadName } = storedFileOf(path, namedBySignature(access, edge));
  missingUntilRelease(asked);
  const object = await headOrUnavailable(remote, file.relative);
  if (!object) throw notFound();
  // Object storage answers have never used the edge lifetime (EDGE_CACHE); kept as they were.
  const source = { relative: file.relative, stat: object, load: () => remote.readAll(file.relative) };
  if (width !== null && (await sendVariant(ctx, deps.variants, source, width, cacheControlFor(access, false, false)))) return;
  const cacheControl = cacheControlFor(access, false, width !== null);
  const disposition = downloadName ? attachmentDisposition(downloadName) : dispositionFor(path, basename(file.relative));
  const type = contentType(file.relative);
  const isPublic = FAMILY_RULES[path.family].readers === 'public' && !edge;
  if (isPublic && (object.size <= BUCKET_STREAM_MAX || ctx.get(FRONT_CACHE_HEADER) === 'store')) {
    answer(ctx, objectRepresentation(remote, object, type), { cacheControl, disposition });
    await primed(ctx);
    return;
  }
  const url = await remote.presign(file.relative, {
    method: ctx.method === 'HEAD' ? 'HEAD' : 'GET',
    type,
    disposition,
    cacheControl,
  });
  // The redirect itself is this request's and expires: no cache may keep it.
  ctx.set('Cache-Control', 'private, no-store');
  ctx.redirect(url);
  ctx.status = 302;
  ctx.body = '';
}

/** Whether the credential names this exact path: a signed download link or an edge URL (the session opens a whole folder). */
const namedBySignature = (access: Access, edge: boolean): boolean => edge || (access.kind === 'member' && access.byLink);

/**
 * The stored file a path stands for: itself, or for a rendition's download name (`{base}_{label}.mp4`)
 * that rendition's `{label}.mp4` in the same folder, sent as an attachment under the asked name
 * (`downloadName`); access was checked on the asked path. Any base name would parse, so a download
 * name is served only when the credential names it (`signed`): the bff signs only the names the
 * item's downloads list gives (its base name and a size its encode made). No database: the signature
 * says so.
 */
function storedFileOf(path: MediaPath, signed: boolean): { file: MediaPath; downloadName: string | null } {
  const asked = path.rest[1];
  const download = FAMILY_RULES[path.family].naming === 'played' && path.rest.length === 2 ? parseRenditionDownloadName(asked!) : null;
  if (!download) return { file: path, downloadName: null };
  if (!signed) throw new AppError('not_found', 'A rendition is downloaded under its name only with its download link from the site');
  const rest = [path.rest[0]!, download.file];
  return { file: { family: path.family, rest, relative: [path.family, ...rest].join('/') }, downloadName: asked! };
}

/** MEDIA_ROOT: a variant, an X-Accel-Redirect (nginx sends the bytes) or the file itself. */
async function fromMediaRoot(
  ctx: Context,
  deps: RepresentationDeps,
  asked: AskedFile,
  access: Access,
  width: number | null,
): Promise<void> {
  const { path, edge } = asked;
  const { file: stored, downloadName } = storedFileOf(path, namedBySignature(access, edge));
  missingUntilRelease(asked);
  const file = await resolveMediaFile(deps.realRoot, stored);
  if (width !== null && (await sendVariant(ctx, deps.variants, file, width, cacheControlFor(access, edge, false)))) return;

  const cacheControl = cacheControlFor(access, edge, width !== null);
  const disposition = downloadName ? attachmentDisposition(downloadName) : dispositionFor(path, basename(file.absolute));
  const type = contentType(file.absolute);
  if (deps.offload && !(access.kind === 'public' && !edge && ctx.get(FRONT_CACHE_HEADER) === 'store')) {
    // nginx serves the bytes (sendfile, ranges, validators); it keeps only a few upstream headers,
    // among them Content-Type, Content-Disposition and Cache-Control.
    ctx.set('X-Accel-Redirect', deps.offload.prefix + file.relative.split('/').map(encodeURIComponent).join('/'));
    ctx.set('Cache-Control', cacheControl);
    if (disposition) ctx.set('Content-Disposition', disposition);
    // Before the body: koa types a body only when no Content-Type is set yet.
    ctx.type = type;
    ctx.body = '';
    return;
  }
  answer(ctx, fileRepresentation(file.absolute, file.stat, type), { cacheControl, disposition });
}

/** STORAGE=s3: the set ZIP from the bucket's objects; the bucket down is a 503, a folder past the listing bound a 404. */
async function zipFromBucket(remote: PresigningOriginals, folder: string, crcs: CrcCache): Promise<Representation> {
  try {
    return await bucketSetZip(remote, folder, crcs);
  } catch (err) {
    if (err instanceof StorageUnavailable) throw storageUnavailable();
    if (err instanceof TooManyObjects) throw new AppError('not_found', 'This set has too many files for one ZIP');
    throw err;
  }
}

/** Sends the representation a permitted request asked for; holds the set ZIPs' CRC cache. */
export function representationSender(deps: RepresentationDeps) {
  const crcs = new CrcCache();
  return async (ctx: Context, asked: AskedFile, access: Access, width: number | null): Promise<void> => {
    const { path } = asked;
    const remote = deps.originals ?? null;
    if (FAMILY_RULES[path.family].setZip && isSetZip(path.rest)) {
      if (width !== null) throw badWidth();
      missingUntilRelease(asked);
      // Built from the set's files on each request (same bytes every time): nginx cannot offload it.
      const zip = remote ? await zipFromBucket(remote, path.rest[0]!, crcs) : await setZip(deps.realRoot, path.rest[0]!, crcs);
      answer(ctx, zip, { cacheControl: PRIVATE_CACHE, disposition: attachmentDisposition(path.rest[1]!) });
      // The first entry's header comes from memory: a bucket failing later cuts the download (resumable with Range).
      return;
    }
    if (remote) await fromObjectStorage(ctx, deps, remote, asked, access, width);
    else await fromMediaRoot(ctx, deps, asked, access, width);
  };
}
