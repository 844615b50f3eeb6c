import { createHash, timingSafeEqual } from 'node:crypto';
import { mediaPathOf } from './token';

/**
 * Edge URLs: signed links a CDN (or any nginx) can verify at the edge with no call to the origin.
 * The format is nginx's `secure_link` module (`secure_link_md5`), which the large CDNs' token
 * schemes also express (an expiry plus a keyed hash over the path):
 *
 *   /edge/members/<percent-encoded media path>?md5=<token>&expires=<unix seconds>
 *   token = base64url, no padding ( MD5( "<expires>" + "<decoded uri>" + " " + EDGE_URL_SECRET ) )
 *
 * `<decoded uri>` is the path as nginx's `$uri` holds it: `/edge/members/video/a b/x.mp4`. nginx:
 *
 *   secure_link     $arg_md5,$arg_expires;
 *   secure_link_md5 "$secure_link_expires$uri <secret>";
 *
 * It names no member, so it is a bearer link to one file until it expires: the bff gives short
 * expiries (EDGE_URL_TTL_S). MD5 is what secure_link offers; the secret (>= 16 characters, random)
 * is what makes it unforgeable, and the media service verifies it again at the origin.
 */

export const EDGE_PREFIX = '/edge';

function token(secret: string, decodedUri: string, expires: number): string {
  return createHash('md5').update(`${expires}${decodedUri} ${secret}`, 'utf8').digest('base64url');
}

/** The decoded URI the token covers for a media path (`video/a b/x.mp4`). */
export function edgeUriOf(mediaPath: string): string {
  return `${EDGE_PREFIX}/members/${mediaPath}`;
}

/** Signs `/members/...` or `video/...`; returns the site-absolute edge URL, segments percent-encoded. */
export function signEdgeUrl(secret: string, input: { path: string; expiresAt: Date | number }): string {
  const mediaPath = mediaPathOf(input.path);
  const expires = typeof input.expiresAt === 'number' ? Math.floor(input.expiresAt) : Math.floor(input.expiresAt.getTime() / 1000);
  const encoded = mediaPath.split('/').map(encodeURIComponent).join('/');
  return `${EDGE_PREFIX}/members/${encoded}?md5=${token(secret, edgeUriOf(mediaPath), expires)}&expires=${expires}`;
}

export type EdgeCheck = { ok: true; expiresAt: number } | { ok: false; reason: 'malformed' | 'bad_signature' | 'expired' };

/** Verifies an edge URL's query for the decoded media path it resolved to. */
export function verifyEdgeUrl(secret: string, mediaPath: string, query: { md5?: string; expires?: string }, nowSeconds = Date.now() / 1000): EdgeCheck {
  const { md5 = '', expires = '' } = query;
  if (!/^\d{1,12}$/.test(expires) || !/^[A-Za-z0-9_-]{22}$/.test(md5)) return { ok: false, reason: 'malformed' };
  const want = Buffer.from(token(secret, edgeUriOf(mediaPath), Number(expires)), 'latin1');
  const got = Buffer.from(md5, 'latin1');
  if (got.length !== want.length || !timingSafeEqual(got, want)) return { ok: false, reason: 'bad_signature' };
  // nginx's secure_link: expired once the time is past `expires`.
  if (Number(expires) < Math.floor(nowSeconds)) return { ok: false, reason: 'expired' };
  return { ok: true, expiresAt: Number(expires) };
}
