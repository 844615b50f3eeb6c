import { useSession, type Member } from '../../hooks/useSession';

/**
 * What this browser's session may fetch, from the bff's own answer (`/api/me`: membership and
 * owned VODs), never guessed from a failed media request. `unknown` while the first /api/me is
 * in flight: show neither the locked nor the open state yet.
 */
export type Access =
  | { status: 'unknown'; /** the session check got no answer: say so, never show the sign-in form */ unreachable?: boolean }
  | { status: 'visitor' }
  | {
      status: 'signedIn';
      member: Member;
      /** an active membership opens photo sets and videos */ active: boolean;
      /** the last check got no answer: `member` is the last one known */ unreachable?: boolean;
    };

export function useAccess(): Access {
  const session = useSession();
  if (session.status === 'unknown') return session.unreachable ? { status: 'unknown', unreachable: true } : { status: 'unknown' };
  if (session.status === 'signedOut') return { status: 'visitor' };
  const access: Access = { status: 'signedIn', member: session.member, active: session.member.membership.active };
  return session.unreachable ? { ...access, unreachable: true } : access;
}

/** Photo sets and videos: open to a signed-in member with an active membership. */
export function mayViewMembersArea(access: Access): boolean {
  return access.status === 'signedIn' && access.active;
}

/** A VOD is open to whoever bought it, whatever the membership. */
export function ownsVod(access: Access, folder: string): boolean {
  return access.status === 'signedIn' && access.member.vods.includes(folder);
}
