import { AppError } from '../errors';
import { FAMILY_RULES } from '../families';
import type { MediaPath } from '@media-site/storage/paths';
import type { RevocationList } from './revocation';
import { hasDownloadSignature, verifyDownloadUrl, verifySessionToken } from '@media-site/contracts/token';
import type { DownloadQuery, KeyRing, TokenFailure } from '@media-site/contracts/token';

export interface Credentials {
  sessionToken: string | undefined;
  query: DownloadQuery;
}

/** `byLink`: granted by a signed download URL, which names this exact path (file name included). */
export type Access = { kind: 'public' } | { kind: 'member'; memberId: string; byLink: boolean };

function refused(reason: TokenFailure, what: 'link' | 'session'): AppError {
  if (reason === 'expired') {
    return new AppError(
      'token_expired',
      what === 'link' ? 'This download link has expired; get a new one from the site' : 'Your media session has expired; reload the page',
    );
  }
  return new AppError('forbidden', what === 'link' ? 'Invalid download link' : 'Invalid media session');
}

/** Also refuses what was minted before the member's "valid from" time (sign out everywhere, a password change). */
export function notRevoked(memberId: string, issuedAt: number, revocations: RevocationList): void {
  if (revocations.has(memberId)) throw new AppError('forbidden', 'Media access has been withdrawn for this account');
  if (revocations.refuses(memberId, issuedAt))
    throw new AppError(
      'forbidden',
      'This link or media session was ended by a sign-out everywhere or a password change; get a new one from the site',
    );
}

/**
 * Who may read a path (spec §7): thumbnails, free photos and previews are public; photos, video
 * and video renditions need an active membership; vod/{path}/… and its renditions need that VOD
 * bought. A signed download URL grants exactly its one path (the bff signs only what the member is
 * entitled to). No database: only signatures.
 */
export function authorize(path: MediaPath, credentials: Credentials, keys: KeyRing, revocations: RevocationList, now: number): Access {
  const { readers } = FAMILY_RULES[path.family];
  if (readers === 'public') return { kind: 'public' };

  if (hasDownloadSignature(credentials.query)) {
    const link = verifyDownloadUrl(keys, path.relative, credentials.query, now);
    if (!link.ok) throw refused(link.reason, 'link');
    notRevoked(link.value.memberId, link.value.issuedAt, revocations);
    return { kind: 'member', memberId: link.value.memberId, byLink: true };
  }

  if (!credentials.sessionToken) throw new AppError('unauthenticated', 'Sign in to view members media');
  const session = verifySessionToken(keys, credentials.sessionToken, now);
  if (!session.ok) throw refused(session.reason, 'session');
  const claims = session.value;
  notRevoked(claims.memberId, claims.issuedAt, revocations);

  if (readers === 'buyers') {
    if (path.rest.length < 2 || !claims.vodPaths.includes(path.rest[0] ?? ''))
      throw new AppError('forbidden', 'This VOD has not been purchased');
  } else if (claims.membershipActiveUntil <= now) {
    throw new AppError('forbidden', 'An active membership is required');
  }
  return { kind: 'member', memberId: claims.memberId, byLink: false };
}
