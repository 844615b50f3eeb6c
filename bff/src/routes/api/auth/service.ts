import { mediaPathOf, signDownloadUrl } from '@media-site/contracts/token';
import { signEdgeUrl } from '@media-site/contracts/edge-url';
import { ForbiddenError, BadRequestError, UnauthenticatedError } from '../../../errors';
import { decoyHash, verifyPassword } from '@media-site/db/members/password';
import { createSession, deleteSession } from '../../../security/sessions';
import type { AccountDeps } from '../members/deps';
import { accessWithdrawn, entitlementsOf, hasActiveMembership } from '../members/entitlements';
import { memberByUsername, type MemberRow } from '../members/repository';
import { enforceSignInLimits, type SignInClient } from './limits';
import type { LoginBody } from './schema';

const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Username and password against the stored scrypt hash; the same work whether the name exists or not. */
export async function checkCredentials(deps: AccountDeps, input: LoginBody): Promise<MemberRow | undefined> {
  const member = await memberByUsername(deps.knex, input.username);
  const ok = await verifyPassword(input.password, member?.password_hash ?? (await decoyHash()));
  return member && ok ? member : undefined;
}

export async function signIn(deps: AccountDeps, input: LoginBody, client: SignInClient): Promise<{ member: MemberRow; session: string }> {
  await enforceSignInLimits(deps, input.username, client);
  const member = await checkCredentials(deps, input);
  if (!member) throw new UnauthenticatedError('wrong username or password');
  if (member.disabled_at !== null) throw new ForbiddenError('this account has been disabled; contact support');
  const session = await createSession(deps.knex, member.id, deps.now(), deps.settings.sessionTtlHours * 3_600_000);
  return { member, session };
}

export const signOut = (deps: AccountDeps, session: string | undefined) => deleteSession(deps.knex, session);

export async function memberView(deps: AccountDeps, member: MemberRow) {
  const e = await entitlementsOf(deps.knex, member);
  const now = deps.now();
  return {
    username: member.username,
    membership: { active: hasActiveMembership(e, now), paidUntil: e.membershipUntil === null ? null : isoDate(e.membershipUntil) },
    vods: e.vodPaths,
    mediaTokenSeconds: deps.settings.mediaTokenTtlSeconds,
  };
}

/**
 * A signed URL for one file the member may fetch, plain enough for wget -c, curl -C - or aria2.
 * Membership files: valid DOWNLOAD_LINK_TTL_HOURS, but never past the paid-through time.
 */
export async function downloadLink(
  deps: AccountDeps,
  member: MemberRow,
  sitePath: string,
): Promise<{ url: string; expiresAt: string; edgeUrl?: string; edgeExpiresAt?: string }> {
  let mediaPath: string;
  try {
    mediaPath = mediaPathOf(sitePath);
  } catch {
    throw new BadRequestError('path must be a /members/ file path');
  }
  const [family, folder] = mediaPath.split('/');
  if (accessWithdrawn(member)) throw new ForbiddenError('media access has been withdrawn for this account');
  const e = await entitlementsOf(deps.knex, member);
  const now = deps.now();
  let expiresAt = now + deps.settings.downloadLinkTtlHours * 3_600_000;
  if (family === 'vod') {
    if (!folder || !e.vodPaths.includes(folder)) throw new ForbiddenError('this VOD has not been purchased');
  } else if (family === 'photos' || family === 'video') {
    if (!hasActiveMembership(e, now) || e.membershipUntil === null) throw new ForbiddenError('an active membership is required');
    expiresAt = Math.min(expiresAt, e.membershipUntil);
  } else {
    throw new BadRequestError('only photos, video and vod files need a download link');
  }
  const link = { url: signDownloadUrl(deps.settings.mediaKeys, { path: mediaPath, memberId: member.id, expiresAt: Math.floor(expiresAt / 1000) }), expiresAt: new Date(expiresAt).toISOString() };
  const edge = deps.settings.edge;
  if (!edge) return link;
  // The same file through a CDN: shorter-lived (it names no member, so revocation cannot reach it).
  const edgeExpiresAt = Math.min(expiresAt, now + edge.ttlSeconds * 1000);
  return {
    ...link,
    edgeUrl: edge.baseUrl + signEdgeUrl(edge.secret, { path: mediaPath, expiresAt: Math.floor(edgeExpiresAt / 1000) }),
    edgeExpiresAt: new Date(edgeExpiresAt).toISOString(),
  };
}
