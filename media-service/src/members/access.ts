import type { Context } from 'koa';
import { EDGE_PREFIX, verifyEdgeUrl } from '@media-site/contracts/edge-url';
import { SESSION_COOKIE, type KeyRing } from '@media-site/contracts/token';
import { parseMediaPath, type MediaPath } from '@media-site/storage/paths';
import { authorize, notRevoked, type Access } from '../access/policy';
import type { RevocationList } from '../access/revocation';
import type { TakedownList } from '../access/takedowns';
import { AppError, notFound } from '../errors';
import { FAMILY_RULES } from '../families';

/** "May this request have this file": the path, takedowns, then a credential. No file is read here. */
export interface AccessDeps {
  keys: KeyRing;
  revocations: RevocationList;
  /** Taken-down folders (410) and scheduled ones (no files until their release). */
  takedowns: TakedownList;
  /** EDGE_URL_SECRET: `/edge/members/...` answers only when set (@media-site/contracts/edge-url). */
  edgeSecret?: string | undefined;
}

/** The file a request names, and whether it came as an edge URL (`/edge/members/...`). */
export interface AskedFile {
  path: MediaPath;
  edge: boolean;
  /** Milliseconds until the item it belongs to is released; 0 when it is (see missingUntilRelease). */
  unreleasedMs: number;
}

/** The longest the front door keeps a scheduled item's 404: its thumbnail cache's usual freshness. */
const SCHEDULED_404_MAX_S = 5;

const REFUSALS = new Set(['unauthenticated', 'forbidden', 'token_expired']);

export function one(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The media path asked for; a taken-down item is gone (410) for everyone, before any credential is looked at. */
export function askedFile(ctx: Context, deps: AccessDeps): AskedFile {
  const edge = ctx.path.startsWith(`${EDGE_PREFIX}/members/`);
  if (edge && !deps.edgeSecret) throw new AppError('not_found', 'No such file');
  const path = parseMediaPath(edge ? ctx.path.slice(EDGE_PREFIX.length) : ctx.path);
  if (deps.takedowns.isTakenDown(path)) throw new AppError('gone', 'This content has been removed');
  return { path, edge, unreleasedMs: deps.takedowns.unreleasedFor(path) };
}

/**
 * An item scheduled for later has no files yet: called where a file is looked up, after the
 * credential and every check a missing file also meets, so its answers (401, 403, the locked-page
 * 303, a bad `w`, a download name without its link, 404) are a never-existing folder's, and nobody
 * learns that a folder is scheduled. The 404 of a public file carries X-Accel-Expires, which keeps
 * the front door's thumbnail cache from holding it past the release: nginx counts whole seconds from
 * the current second, so one second less than the time left, rounded down (0 stores nothing), and
 * never longer than the cache's usual 5 s (an unschedule, an earlier release or a "Coming soon"
 * tease, which opens the cover, must not find a 404 stored until the old release time). nginx
 * passes no X-Accel-* header to a client, and caches no member file.
 */
export function missingUntilRelease({ path, unreleasedMs }: AskedFile): void {
  if (unreleasedMs <= 0) return;
  if (FAMILY_RULES[path.family].readers !== 'public') throw notFound();
  const seconds = Math.min(SCHEDULED_404_MAX_S, Math.max(0, Math.floor(unreleasedMs / 1000) - 1));
  throw new AppError('not_found', 'No such file', { 'X-Accel-Expires': String(seconds) });
}

/**
 * An edge URL grants its one path until it expires, unless its member has been revoked or its mint
 * time is before the member's "valid from" time (nginx or a CDN cannot know that; this can).
 */
function edgeAccess(secret: string, path: MediaPath, query: Context['query'], revocations: RevocationList, now: number): Access {
  const check = verifyEdgeUrl(
    secret,
    path.relative,
    { md5: one(query.md5), expires: one(query.expires), mid: one(query.mid), iat: one(query.iat) },
    now,
  );
  if (!check.ok) {
    if (check.reason === 'expired') throw new AppError('token_expired', 'This download link has expired; get a new one from the site');
    throw new AppError('forbidden', 'Invalid download link');
  }
  notRevoked(check.memberId, check.issuedAt, revocations);
  return { kind: 'public' };
}

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
  const base = FAMILY_RULES[path.family].lockedPage;
  const folder = path.rest[0];
  if (!base || !folder || path.rest.length < 2) return undefined;
  return base + encodeURIComponent(folder);
}

/**
 * Whether this request may have the file: an edge URL, or the policy's session token or signed
 * download URL. null: refused, and the refusal was answered as a 303 to the item's page.
 */
export function mayHave(ctx: Context, { path, edge }: AskedFile, deps: AccessDeps, now: number): Access | null {
  const { query } = ctx;
  try {
    if (edge) return edgeAccess(deps.edgeSecret!, path, query, deps.revocations, now);
    const credentials = {
      sessionToken: ctx.cookies.get(SESSION_COOKIE),
      query: { mid: one(query.mid), iat: one(query.iat), exp: one(query.exp), kid: one(query.kid), sig: one(query.sig) },
    };
    return authorize(path, credentials, deps.keys, deps.revocations, now);
  } catch (err) {
    const page = lockedPageFor(ctx, path, err);
    if (!page) throw err;
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Vary', 'Accept, Sec-Fetch-Mode');
    ctx.status = 303;
    ctx.redirect(page);
    return null;
  }
}
