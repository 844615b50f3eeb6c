import type { Knex } from 'knex';
import { signSessionToken, type KeyRing } from '@media-site/media-service/token';
import { boughtVodPaths, membershipPaidUntil } from './repository';

export interface Entitlements {
  /** Unix ms the paid membership runs until; null: never had one. */
  membershipUntil: number | null;
  vodPaths: string[];
}

export async function entitlementsOf(db: Knex, memberId: number): Promise<Entitlements> {
  const [membershipUntil, vodPaths] = await Promise.all([membershipPaidUntil(db, memberId), boughtVodPaths(db, memberId)]);
  return { membershipUntil, vodPaths };
}

export function hasActiveMembership(e: Entitlements, now: number): boolean {
  return e.membershipUntil !== null && e.membershipUntil > now;
}

/**
 * The media service's session token (cookie `media_token`): short-lived, re-issued by the bff on
 * every /api/me, so a revoked or lapsed membership stops working within its lifetime.
 */
export function mediaToken(keys: KeyRing, memberId: number, e: Entitlements, now: number, ttlSeconds: number): string {
  return signSessionToken(keys, {
    memberId,
    expiresAt: Math.floor(now / 1000) + ttlSeconds,
    membershipActiveUntil: e.membershipUntil === null ? null : Math.floor(e.membershipUntil / 1000),
    vodPaths: e.vodPaths,
  });
}
