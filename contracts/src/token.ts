import { createHmac, timingSafeEqual } from 'node:crypto';
import { commaList } from './comma-list';

/**
 * Media access credentials, shared by the bff (which signs) and the media service (which verifies).
 * Both are HMAC-SHA256 with a key id so keys rotate: the first key of MEDIA_TOKEN_KEYS signs, every
 * listed key verifies. Verifying needs no database.
 *
 * Session token (cookie `media_token`): `ms1.<kid>.<base64url JSON payload>.<base64url sig>`,
 * short-lived (minutes) so that a revoked membership stops working once the bff stops re-issuing it.
 *
 * Signed download URL: `/members/<path>?mid=<member>&iat=<unix s>&exp=<unix s>&kid=<kid>&sig=<base64url>`,
 * bound to one file path, valid for hours or days, a plain URL any download manager can resume.
 *
 * Both carry their mint time (`iat`, whole unix seconds) under the signature: the media service
 * refuses anything a member's session minted before that member's "valid from" time (sign out
 * everywhere, a password change, a disable: the bff's revocation list). A token or link from
 * before `iat` existed counts as minted at 0.
 */

export const SESSION_COOKIE = 'media_token';

/** For local development only: loadConfig refuses it when NODE_ENV=production. */
export const DEV_TOKEN_KEYS = 'dev:local-development-only-media-key';

export interface TokenKey {
  kid: string;
  secret: Buffer;
}

export interface KeyRing {
  signing: TokenKey;
  byId: ReadonlyMap<string, Buffer>;
}

const KID = /^[\w-]{1,32}$/;
const MEMBER_ID = /^[\w-]{1,64}$/;

/** Parses "kid:secret,kid2:secret2"; throws listing what is wrong. */
export function parseKeyRing(spec: string): KeyRing {
  const keys: TokenKey[] = [];
  const problems: string[] = [];
  for (const part of commaList(spec)) {
    const colon = part.indexOf(':');
    const kid = colon > 0 ? part.slice(0, colon) : '';
    const secret = colon > 0 ? part.slice(colon + 1) : '';
    if (!KID.test(kid)) problems.push(`key id "${kid}" must be 1-32 characters of A-Z a-z 0-9 _ -`);
    else if (secret.length < 16) problems.push(`key "${kid}" secret must be at least 16 characters`);
    else if (keys.some((k) => k.kid === kid)) problems.push(`key id "${kid}" appears twice`);
    else keys.push({ kid, secret: Buffer.from(secret, 'utf8') });
  }
  const signing = keys[0];
  if (!signing) problems.push('at least one key "kid:secret" is required');
  if (problems.length > 0 || !signing) throw new Error(problems.join('; '));
  return { signing, byId: new Map(keys.map((k) => [k.kid, k.secret])) };
}

function hmac(secret: Buffer, message: string): Buffer {
  return createHmac('sha256', secret).update(message, 'utf8').digest();
}

/**
 * Compares the text, not the decoded bytes: base64url decoding ignores stray characters and the
 * spare low bits of the last character, so several strings decode to one signature. Only the one
 * canonical encoding is accepted (a token edited in its last character must not still verify).
 */
function sameSignature(expected: Buffer, given: string): boolean {
  const want = Buffer.from(expected.toString('base64url'), 'latin1');
  const got = Buffer.from(given, 'latin1');
  return got.length === want.length && timingSafeEqual(got, want);
}

function unixSeconds(at: Date | number): number {
  return typeof at === 'number' ? Math.floor(at) : Math.floor(at.getTime() / 1000);
}

export type TokenFailure = 'malformed' | 'unknown_key' | 'bad_signature' | 'expired';

export type Verified<T> = { ok: true; value: T } | { ok: false; reason: TokenFailure };

export interface SessionClaims {
  memberId: string;
  /** Unix seconds the token stops being accepted. */
  expiresAt: number;
  /** Unix seconds the paid membership runs until (0: none); photos and video need it in the future. */
  membershipActiveUntil: number;
  /** `path` of every VOD bought (the folder under vod/). */
  vodPaths: string[];
  /** Unix seconds it was minted (0: a token from before `iat`). */
  issuedAt: number;
}

interface SessionPayload {
  sub: string;
  exp: number;
  mau: number;
  vod: string[];
  iat?: number;
}

function isSessionPayload(value: unknown): value is SessionPayload {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.sub === 'string' &&
    MEMBER_ID.test(v.sub) &&
    Number.isInteger(v.exp) &&
    Number.isInteger(v.mau) &&
    Array.isArray(v.vod) &&
    v.vod.every((p) => typeof p === 'string') &&
    (v.iat === undefined || (Number.isInteger(v.iat) && (v.iat as number) >= 0))
  );
}

export interface SignSessionInput {
  memberId: string | number;
  expiresAt: Date | number;
  membershipActiveUntil: Date | number | null;
  vodPaths: readonly string[];
  /** When it is minted; default now. */
  issuedAt?: Date | number;
}

export function signSessionToken(keys: KeyRing, input: SignSessionInput): string {
  const memberId = String(input.memberId);
  if (!MEMBER_ID.test(memberId)) throw new Error('member id must be 1-64 characters of A-Z a-z 0-9 _ -');
  const payload: SessionPayload = {
    sub: memberId,
    exp: unixSeconds(input.expiresAt),
    mau: input.membershipActiveUntil === null ? 0 : unixSeconds(input.membershipActiveUntil),
    vod: [...input.vodPaths],
    iat: unixSeconds(input.issuedAt ?? Date.now() / 1000),
  };
  const { kid, secret } = keys.signing;
  const body = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
  return `ms1.${kid}.${body}.${hmac(secret, `ms1.${kid}.${body}`).toString('base64url')}`;
}

export function verifySessionToken(keys: KeyRing, token: string, nowSeconds = Date.now() / 1000): Verified<SessionClaims> {
  const parts = token.split('.');
  if (parts.length !== 4 || parts[0] !== 'ms1') return { ok: false, reason: 'malformed' };
  const [, kid = '', body = '', sig = ''] = parts;
  const secret = keys.byId.get(kid);
  if (!secret) return { ok: false, reason: 'unknown_key' };
  if (!sameSignature(hmac(secret, `ms1.${kid}.${body}`), sig)) return { ok: false, reason: 'bad_signature' };
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (!isSessionPayload(payload)) return { ok: false, reason: 'malformed' };
  if (payload.exp <= nowSeconds) return { ok: false, reason: 'expired' };
  return {
    ok: true,
    value: {
      memberId: payload.sub,
      expiresAt: payload.exp,
      membershipActiveUntil: payload.mau,
      vodPaths: payload.vod,
      issuedAt: payload.iat ?? 0,
    },
  };
}

/** `/members/video/a b/x.mp4` -> `video/a b/x.mp4`: the decoded path below MEDIA_ROOT that is signed. */
export function mediaPathOf(sitePath: string): string {
  const trimmed = sitePath.replace(/^\/?members\//, '').replace(/^\/+/, '');
  if (trimmed === '' || trimmed.split('/').some((s) => s === '' || s === '.' || s === '..')) {
    throw new Error(`not a media path: ${sitePath}`);
  }
  return trimmed;
}

/** `iat` null: a link signed before links carried it (`dl1`); dropping `iat` from a `dl2` link breaks its signature. */
function downloadMessage(kid: string, mediaPath: string, exp: number, memberId: string, iat: number | null): string {
  return iat === null ? `dl1\n${kid}\n${mediaPath}\n${exp}\n${memberId}` : `dl2\n${kid}\n${mediaPath}\n${exp}\n${memberId}\n${iat}`;
}

export interface SignDownloadInput {
  /** Decoded site path (`/members/video/{folder}/{file}`) or media path (`video/{folder}/{file}`). */
  path: string;
  memberId: string | number;
  expiresAt: Date | number;
  /** When it is minted; default now. */
  issuedAt?: Date | number;
}

/** Returns the site-absolute URL, path segments percent-encoded. */
export function signDownloadUrl(keys: KeyRing, input: SignDownloadInput): string {
  const mediaPath = mediaPathOf(input.path);
  const memberId = String(input.memberId);
  if (!MEMBER_ID.test(memberId)) throw new Error('member id must be 1-64 characters of A-Z a-z 0-9 _ -');
  const exp = unixSeconds(input.expiresAt);
  const iat = unixSeconds(input.issuedAt ?? Date.now() / 1000);
  const { kid, secret } = keys.signing;
  const sig = hmac(secret, downloadMessage(kid, mediaPath, exp, memberId, iat)).toString('base64url');
  const encoded = mediaPath.split('/').map(encodeURIComponent).join('/');
  return `/members/${encoded}?mid=${memberId}&iat=${iat}&exp=${exp}&kid=${kid}&sig=${sig}`;
}

export interface DownloadClaims {
  memberId: string;
  expiresAt: number;
  /** Unix seconds it was minted (0: a link from before `iat`). */
  issuedAt: number;
}

export interface DownloadQuery {
  mid?: string | undefined;
  iat?: string | undefined;
  exp?: string | undefined;
  kid?: string | undefined;
  sig?: string | undefined;
}

export function hasDownloadSignature(query: DownloadQuery): boolean {
  return query.sig !== undefined;
}

/** `mediaPath` is the decoded path below MEDIA_ROOT the request resolved to. */
export function verifyDownloadUrl(
  keys: KeyRing,
  mediaPath: string,
  query: DownloadQuery,
  nowSeconds = Date.now() / 1000,
): Verified<DownloadClaims> {
  const { mid = '', iat, exp = '', kid = '', sig = '' } = query;
  if (!MEMBER_ID.test(mid) || !/^\d{1,12}$/.test(exp) || sig === '') return { ok: false, reason: 'malformed' };
  if (iat !== undefined && !/^\d{1,12}$/.test(iat)) return { ok: false, reason: 'malformed' };
  const secret = keys.byId.get(kid);
  if (!secret) return { ok: false, reason: 'unknown_key' };
  const expiresAt = Number(exp);
  const issuedAt = iat === undefined ? null : Number(iat);
  if (!sameSignature(hmac(secret, downloadMessage(kid, mediaPath, expiresAt, mid, issuedAt)), sig)) {
    return { ok: false, reason: 'bad_signature' };
  }
  if (expiresAt <= nowSeconds) return { ok: false, reason: 'expired' };
  return { ok: true, value: { memberId: mid, expiresAt, issuedAt: issuedAt ?? 0 } };
}
