import { basename, extname } from 'node:path';
import type { Context } from 'koa';
import mime from 'mime-types';
import { authorize, notRevoked, type Access } from './access/policy';
import { EDGE_PREFIX, verifyEdgeUrl } from '@media-site/contracts/edge-url';
import type { RevocationList } from './access/revocation';
import type { TakedownList } from './access/takedowns';
import { SESSION_COOKIE } from '@media-site/contracts/token';
import type { KeyRing } from '@media-site/contracts/token';
import { AppError, notFound } from './errors';
import { asciiFallback, attachmentDisposition } from './files/disposition';
import { parseMediaPath, resolveMediaFile } from '@media-site/storage/paths';
import { parseRenditionDownloadName } from '@media-site/contracts/download-name';
import type { Family, MediaPath, ResolvedFile } from '@media-site/storage/paths';
import { answer, fileRepresentation } from './files/send';
import { CrcCache, isSetZip, setZip } from './files/set-zip';
import { ORIGINAL_FAMILIES, type PresigningOriginals } from '@media-site/storage/originals';
import { StorageUnavailable } from '@media-site/storage/s3';
import { VARIANT_TYPES, negotiateFormat, parseWidth } from './variants/format';
import type { VariantService } from './variants/service';

export interface MembersDeps {
  /** MEDIA_ROOT after realpath, so symlink checks compare like with like. */
  realRoot: string;
  keys: KeyRing;
  revocations: RevocationList;
  /** Taken-down folders (410). */
  takedowns: TakedownList;
  variants: VariantService;
  offload: { prefix: string } | null;
  /** STORAGE=s3: originals come from the bucket (presigned redirects, variants read through it); null: the local tree. */
  originals?: PresigningOriginals | null;
  /** EDGE_URL_SECRET: `/edge/members/...` answers only when set (src/access/edge-url.ts). */
  edgeSecret?: string | undefined;
  /** Unix seconds; tests pin the clock. */
  now?: () => number;
}

const VARIANT_FAMILIES = new Set<Family>(['photosthumbs', 'videothumbs', 'vodthumbs', 'freephotos', 'photos']);
const DOWNLOAD_FAMILIES = new Set<Family>(['video', 'vod']);
// Played in the page: `inline`, with a name for "save video as" (`{folder}-720p.mp4`).
const PLAYED_FAMILIES = new Set<Family>(['videorenditions', 'vodrenditions']);
// Browsers keep a public thumbnail 5 minutes, then revalidate (ETag, a 304 from the front door's
// cache): that bounds how long a taken-down thumbnail lingers in a browser that already has it.
// Shared caches (a CDN an operator puts in front) keep it 5 s, as nginx does, for the takedown bound.
const PUBLIC_CACHE = 'public, max-age=300, s-maxage=5';
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

function one(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function contentType(file: ResolvedFile): string {
  return mime.lookup(extname(file.absolute)) || 'application/octet-stream';
}

// The site page that says what a refused member file is and how to get it (the SPA's lock notice).
const LOCKED_PAGE: Partial<Record<Family, string>> = { photos: '/photos/', video: '/video/', videorenditions: '/video/', vod: '/vod/', vodrenditions: '/vod/' };
const REFUSALS = new Set(['unauthenticated', 'forbidden', 'token_expired']);

/**
 * Where a browser that navigated to a file it may not read goes instead of a raw JSON error: a 303
 * to the item's page, which shows the lock (Join / Sign in / Buy). Only for a top-level HTML
 * navigation (Accept names text/html; Sec-Fetch-Mode, when sent, is `navigate`) without Range:
 * images, players, download managers and scripts keep the JSON 401/403.
 */
function lockedPageFor(ctx: Context, path: MediaPath, err: unknown): string | undefined {
  if (!(err instanceof AppError) || !REFUSALS.has(err.code)) return undefined;
  if (ctx.method !== 'GET' || ctx.get('Range')) return undefined;
  if (!/(?:^|[\s,])text\/html(?:[\s;,]|$)/i.test(ctx.get('Accept'))) return undefined;
  const mode = ctx.get('Sec-Fetch-Mode');
  if (mode && mode !== 'navigate') return undefined;
  const base = LOCKED_PAGE[path.family];
  const folder = path.rest[0];
  if (!base || !folder || path.rest.length < 2) return undefined;
  return base + encodeURIComponent(folder);
}

function dispositionFor(path: MediaPath, name: string): string | undefined {
  return DOWNLOAD_FAMILIES.has(path.family)
    ? attachmentDisposition(name)
    : PLAYED_FAMILIES.has(path.family)
      ? `inline; filename="${asciiFallback(`${path.rest[0]}-${name}`)}"`
      : undefined;
}

async function headOrUnavailable(remote: PresigningOriginals, relative: string) {
  try {
    return await remote.head(relative);
  } catch (err) {
    if (err instanceof StorageUnavailable) throw new AppError('storage_unavailable', 'Media storage is not answering; retry shortly', { 'Retry-After': '2' });
    throw err;
  }
}

/**
 * STORAGE=s3, after the access and takedown checks: a variant is made here from the original read
 * through storage; the original itself is a `302` to a presigned URL of that one object, valid
 * S3_PRESIGN_SECONDS, and the client sends its Range (and If-Range, If-None-Match) to the bucket
 * (media-service/README.md, "Originals in object storage", says why not proxy the bytes).
 */
async function fromObjectStorage(ctx: Context, deps: MembersDeps, remote: PresigningOriginals, path: MediaPath, access: Access, width: number | null): Promise<void> {
  const object = await headOrUnavailable(remote, path.relative);
  if (!object) throw notFound();
  let cacheControl = access.kind === 'public' ? PUBLIC_CACHE : PRIVATE_CACHE;
  const type = mime.lookup(extname(path.relative)) || 'application/octet-stream';
  if (width !== null) {
    const format = negotiateFormat(ctx.get('Accept') || undefined);
    const variant = await deps.variants.get(
      { relative: path.relative, stat: object, load: () => remote.readAll(path.relative) },
      width,
      format,
    );
    if (variant) {
      const { data, key } = variant;
      answer(
        ctx,
        {
          size: data.length,
          etag: `"v-${key.slice(0, 40)}"`,
          lastModified: new Date(object.mtimeMs),
          type: VARIANT_TYPES[format],
          read: ({ start, end }) => data.subarray(start, end + 1),
        },
        { cacheControl, vary: 'Accept' },
      );
      return;
    }
    if (access.kind === 'public') cacheControl = STAND_IN_CACHE;
  }
  const url = await remote.presign(path.relative, {
    method: ctx.method === 'HEAD' ? 'HEAD' : 'GET',
    type,
    disposition: dispositionFor(path, basename(path.relative)),
    cacheControl,
  });
  // The redirect is this member's and expires: no cache may keep it.
  ctx.set('Cache-Control', 'private, no-store');
  ctx.redirect(url);
  ctx.status = 302;
  ctx.body = '';
}


/**
 * An edge URL grants its one path until it expires, unless its member has been revoked or its mint
 * time is before the member's "valid from" time (nginx or a CDN cannot know that; this can).
 */
function edgeAccess(secret: string, path: MediaPath, query: Context['query'], revocations: RevocationList, now: number): Access {
  const check = verifyEdgeUrl(secret, path.relative, { md5: one(query.md5), expires: one(query.expires), mid: one(query.mid), iat: one(query.iat) }, now);
  if (!check.ok) {
    if (check.reason === 'expired') throw new AppError('token_expired', 'This download link has expired; get a new one from the site');
    throw new AppError('forbidden', 'Invalid download link');
  }
  notRevoked(check.memberId, check.issuedAt, revocations);
  return { kind: 'public' };
}

/** The played file a rendition download stands for: `videorenditions/{path}/{label}.mp4`. */
function renditionBehind(path: MediaPath, file: string): MediaPath {
  const rest = [path.rest[0]!, file];
  return { family: path.family, rest, relative: [path.family, ...rest].join('/') };
}

/** GET/HEAD /members/<family>/<path> (or /edge/members/..., an edge URL): access, then a variant, an X-Accel-Redirect or the file itself. */
export function membersHandler(deps: MembersDeps) {
  const now = deps.now ?? (() => Date.now() / 1000);
  const crcs = new CrcCache();
  return async (ctx: Context): Promise<void> => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.set('Allow', 'GET, HEAD');
      ctx.status = 405;
      ctx.body = { error: { code: 'method_not_allowed', message: 'Use GET or HEAD' } };
      return;
    }
    // Until both lists have loaded once, no file can be told apart from a taken-down or revoked one.
    if (!deps.takedowns.loaded || !deps.revocations.loaded) {
      throw new AppError('not_ready', 'The media service is starting; try again in a moment', { 'Retry-After': '2' });
    }
    const edge = ctx.path.startsWith(`${EDGE_PREFIX}/members/`);
    if (edge && !deps.edgeSecret) throw new AppError('not_found', 'No such file');
    const path = parseMediaPath(edge ? ctx.path.slice(EDGE_PREFIX.length) : ctx.path);
    // Before access checks: a taken-down item is gone for everyone, members included.
    if (deps.takedowns.isTakenDown(path)) throw new AppError('gone', 'This content has been removed');
    const query = ctx.query;
    const w = one(query.w);
    let width: number | null = null;
    if (w !== undefined) {
      width = parseWidth(w);
      if (width === null || !VARIANT_FAMILIES.has(path.family)) {
        throw new AppError('bad_parameter', 'w must be one of 160, 320, 480, 640, 960, 1280, on images only');
      }
    }

    let access: Access;
    try {
      access = edge ? edgeAccess(deps.edgeSecret!, path, query, deps.revocations, now()) : authorize(
        path,
        {
          sessionToken: ctx.cookies.get(SESSION_COOKIE),
          query: { mid: one(query.mid), iat: one(query.iat), exp: one(query.exp), kid: one(query.kid), sig: one(query.sig) },
        },
        deps.keys,
        deps.revocations,
        now(),
      );
    } catch (err) {
      const page = lockedPageFor(ctx, path, err);
      if (!page) throw err;
      ctx.set('Cache-Control', 'no-store');
      ctx.set('Vary', 'Accept, Sec-Fetch-Mode');
      ctx.status = 303;
      ctx.redirect(page);
      return;
    }
    const remote = deps.originals && ORIGINAL_FAMILIES.has(path.family) ? deps.originals : null;
    if (isSetZip(path.family, path.rest)) {
      if (width !== null) throw new AppError('bad_parameter', 'w must be one of 160, 320, 480, 640, 960, 1280, on images only');
      if (remote) throw new AppError('not_found', 'Set ZIPs are not available while originals are in object storage (STORAGE=s3)');
      // Built from the set's files on each request (same bytes every time): nginx cannot offload it.
      const zip = await setZip(deps.realRoot, path.rest[0]!, crcs);
      answer(ctx, zip, { cacheControl: PRIVATE_CACHE, disposition: attachmentDisposition(path.rest[1]!) });
      return;
    }
    if (remote) {
      await fromObjectStorage(ctx, deps, remote, path, access, width);
      return;
    }
    // A rendition's download name (`{base}_{label}.mp4`) is that rendition's `{label}.mp4` in the
    // same folder, sent as an attachment under the asked name; access was checked on the asked path.
    const download = PLAYED_FAMILIES.has(path.family) && path.rest.length === 2 ? parseRenditionDownloadName(path.rest[1]!) : null;
    const file = await resolveMediaFile(deps.realRoot, download ? renditionBehind(path, download.file) : path);
    let cacheControl = edge ? EDGE_CACHE : access.kind === 'public' ? PUBLIC_CACHE : PRIVATE_CACHE;

    if (width !== null) {
      const format = negotiateFormat(ctx.get('Accept') || undefined);
      const variant = await deps.variants.get(file, width, format);
      if (variant) {
        const { data, key } = variant;
        answer(
          ctx,
          {
            size: data.length,
            etag: `"v-${key.slice(0, 40)}"`,
            lastModified: file.stat.mtime,
            type: VARIANT_TYPES[format],
            read: ({ start, end }) => data.subarray(start, end + 1),
          },
          { cacheControl, vary: 'Accept' },
        );
        return;
      }
      // The original stands in for the variant (cache disk full): cached briefly, by nginx and
      // browsers alike, so the resized variant takes over soon after there is room again.
      if (access.kind === 'public') cacheControl = STAND_IN_CACHE;
    }

    const disposition = download ? attachmentDisposition(path.rest[1]!) : dispositionFor(path, basename(file.absolute));
    if (deps.offload && !(access.kind === 'public' && !edge && ctx.get(FRONT_CACHE_HEADER) === 'store')) {
      // nginx serves the bytes (sendfile, ranges, validators); it keeps only a few upstream headers,
      // among them Content-Type, Content-Disposition and Cache-Control.
      ctx.set('X-Accel-Redirect', deps.offload.prefix + file.relative.split('/').map(encodeURIComponent).join('/'));
      ctx.set('Cache-Control', cacheControl);
      if (disposition) ctx.set('Content-Disposition', disposition);
      ctx.type = contentType(file);
      ctx.body = '';
      ctx.type = contentType(file);
      return;
    }
    answer(ctx, fileRepresentation(file.absolute, file.stat, contentType(file)), { cacheControl, disposition });
  };
}
