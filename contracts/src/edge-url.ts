import { createHash, timingSafeEqual } from 'node:crypto';
import { mediaPathOf } from './token';

/**
 * Edge URLs: signed links a CDN (or any nginx) can verify at the edge with no call to the origin.
 * The format is nginx's `secure_link` module (`secure_link_md5`), which the large CDNs' token
 * schemes also express (an expiry plus a keyed hash over the path):
 *
 *   /edge/members/<percent-encoded media path>?md5=<token>&expires=<unix s>&mid=<member>&iat=<unix s>
 *   token = base64url, no padding ( MD5( "<expires>" + "<decoded uri>" + " <mid> <iat> " + EDGE_URL_SECRET ) )
 *
 * `<decoded uri>` is the path as nginx's `$uri` holds it: `/edge/members/video/a b/x.mp4`. nginx:
 *
 *   secure_link     $arg_md5,$arg_expires;
 *   secure_link_md5 "$secure_link_expires$uri $arg_mid $arg_iat <secret>";
 *
 * A bearer link to one file until it expires, checked at the edge without the origin: the bff gives
 * short expiries (EDGE_URL_TTL_SECONDS, 5 minutes by default). The member and the mint time are
 * under the token so the media service, which verifies it again at the origin, refuses it once the
 * member is revoked or their "valid from" time passes its `iat` (sign out everywhere, a password
 * change); a CDN's cached copy is only reachable with an unexpired token, so the lifetime bounds that.
 * `mid` and `iat` have no spaces (checked), so the fields cannot run into each other. MD5 is what
 * secure_link offers; the secret (>= 16 characters, random) is what makes it unforgeable.
 */

export const EDGE_PREFIX = '/edge';

const MEMBER_ID = /^[\w-]{1,64}$/;
const SECONDS = /^\d{1,12}$/;

function token(secret: string, decodedUri: string, expires: number, memberId: string, issuedAt: number | string): string {
  return createHash('md5').update(`${expires}${decodedUri} ${memberId} ${issuedAt} ${secret}`, 'utf8').digest('base64url');
}

const seconds = (at: Date | number) => (typeof at === 'number' ? Math.floor(at) : Math.floor(at.getTime() / 1000));

/** The decoded URI the token covers for a media path (`video/a b/x.mp4`). */
export function edgeUriOf(mediaPath: string): string {
  return `${EDGE_PREFIX}/members/${mediaPath}`;
}

export interface SignEdgeInput {
  /** `/members/...` or `video/...`. */
  path: string;
  expiresAt: Date | number;
  /** The member it is minted for, and when: the media service checks both against its revocation list. */
  memberId: string | number;
  issuedAt: Date | number;
}

/** Returns the site-absolute edge URL, segments percent-encoded. */
export function signEdgeUrl(secret: string, input: SignEdgeInput): string {
  const mediaPath = mediaPathOf(input.path);
  const memberId = String(input.memberId);
  if (!MEMBER_ID.test(memberId)) throw new Error('member id must be 1-64 characters of A-Z a-z 0-9 _ -');
  const expires = seconds(input.expiresAt);
  const iat = seconds(input.issuedAt);
  const encoded = mediaPath.split('/').map(encodeURIComponent).join('/');
  return `${EDGE_PREFIX}/members/${encoded}?md5=${token(secret, edgeUriOf(mediaPath), expires, memberId, iat)}&expires=${expires}&mid=${memberId}&iat=${iat}`;
}

export type EdgeCheck =
  { ok: true; expiresAt: number; memberId: string; issuedAt: number } | { ok: false; reason: 'malformed' | 'bad_signature' | 'expired' };

/** Verifies an edge URL's query for the decoded media path it resolved to. A URL without `mid` and `iat` (as signed before edge URLs named their member and mint time) no longer verifies. */
export function verifyEdgeUrl(
  secret: string,
  mediaPath: string,
  query: { md5?: string | undefined; expires?: string | undefined; mid?: string | undefined; iat?: string | undefined },
  nowSeconds = Date.now() / 1000,
): EdgeCheck {
  const { md5 = '', expires = '', mid = '', iat = '' } = query;
  if (!SECONDS.test(expires) || !SECONDS.test(iat) || !MEMBER_ID.test(mid) || !/^[\w-]{22}$/.test(md5))
    return { ok: false, reason: 'malformed' };
  // The digits as sent, as nginx's $arg_iat hashes them (a leading zero changes the token for both).
  const want = Buffer.from(token(secret, edgeUriOf(mediaPath), Number(expires), mid, iat), 'latin1');
  const got = Buffer.from(md5, 'latin1');
  if (got.length !== want.length || !timingSafeEqual(got, want)) return { ok: false, reason: 'bad_signature' };
  // nginx's secure_link: expired once the time is past `expires`.
  if (Number(expires) < Math.floor(nowSeconds)) return { ok: false, reason: 'expired' };
  return { ok: true, expiresAt: Number(expires), memberId: mid, issuedAt: Number(iat) };
}
