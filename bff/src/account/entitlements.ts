import type { Knex } from 'knex';
import { signSessionToken, type KeyRing } from '@media-site/contracts/token';
import { boughtVodPaths, membershipPaidUntil, type MemberRow } from './repository';

export interface Entitlements {
  /** Unix ms the paid membership runs until; null: never had one, or access was withdrawn. */
  membershipUntil: number | null;
  vodPaths: string[];
}

export const accessWithdrawn = (member: Pick<MemberRow, 'revoked_at' | 'disabled_at'>) =>
  member.revoked_at !== null || member.disabled_at !== null;

/**
 * What the member may fetch. A chargeback, refund, return or void (`revoked_at`) and an operator's
 * disable withdraw everything, membership and bought VODs alike, for as long as they stand: only
 * `npm run ops -- member enable` clears them. The media service's revocation list covers the
 * tokens and links issued before; this covers every one issued after, however long after.
 */
export async function entitlementsOf(db: Knex, member: Pick<MemberRow, 'id' | 'revoked_at' | 'disabled_at'>): Promise<Entitlements> {
  if (accessWithdrawn(member)) return { membershipUntil: null, vodPaths: [] };
  const [membershipUntil, vodPaths] = await Promise.all([membershipPaidUntil(db, member.id), boughtVodPaths(db, member.id)]);
  return { membershipUntil, vodPaths };
}

export function hasActiveMembership(e: Entitlements, now: number): boolean {
  return e.membershipUntil !== null && e.membershipUntil > now;
}

/**
 * The media service's session token (cookie `media_token`): short-lived, re-issued by the bff on
 * every /api/me, so a revoked or lapsed membership stops working within its lifetime. `issuedAt`
 * (unix s, repository.ts mintSeconds) is what the media service compares with the member's
 * valid-from time, so a sign-out everywhere reaches tokens issued before it.
 */
export function mediaToken(keys: KeyRing, memberId: number, e: Entitlements, now: number, ttlSeconds: number, issuedAt: number): string {
  return signSessionToken(keys, {
    memberId,
    expiresAt: Math.floor(now / 1000) + ttlSeconds,
    membershipActiveUntil: e.membershipUntil === null ? null : Math.floor(e.membershipUntil / 1000),
    vodPaths: e.vodPaths,
    issuedAt,
  });
}
