import { useSession, type Member } from '../../hooks/useSession';

/**
 * What this browser's session may fetch, from the bff's own answer (`/api/me`: membership and
 * owned VODs), never guessed from a failed media request. `unknown` while the first /api/me is
 * in flight: show neither the locked nor the open state yet.
 */
export type Access =
  | { status: 'unknown' }
  | { status: 'visitor' }
  | { status: 'signedIn'; member: Member; /** an active membership opens photo sets and videos */ active: boolean };

export function useAccess(): Access {
  const session = useSession();
  if (session.status === 'unknown') return { status: 'unknown' };
  if (session.status === 'signedOut') return { status: 'visitor' };
  return { status: 'signedIn', member: session.member, active: session.member.membership.active };
}

/** Photo sets and videos: open to a signed-in member with an active membership. */
export function mayViewMembersArea(access: Access): boolean {
  return access.status === 'signedIn' && access.active;
}

/** A VOD is open to whoever bought it, whatever the membership. */
export function ownsVod(access: Access, folder: string): boolean {
  return access.status === 'signedIn' && access.member.vods.includes(folder);
}
