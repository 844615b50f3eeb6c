import { PolledList } from './polled-list';

/**
 * Member ids whose media access is withdrawn (cancellation, chargeback, disabled) before their
 * short-lived tokens and signed links run out, and per member a "valid from" time (sign out
 * everywhere, a password change, a disable): a token, download link or edge URL minted (`iat`)
 * before it is refused. Checked on every request; refreshed from the bff's
 * `/internal/media-revocations` (`{ "members": ["12", ...], "validFrom": { "7": 1764100000 } }`)
 * every MEDIA_REVOCATION_INTERVAL_S (5 s), so a revocation reaches the media service within one
 * interval and one answer: under 10 s.
 */
export class RevocationList extends PolledList {
  protected readonly name = 'revocation';
  private revoked = new Set<string>();
  private validFrom = new Map<string, number>();

  has(memberId: string): boolean {
    return this.revoked.has(memberId);
  }

  /** Whether something the member was given at `issuedAt` (unix seconds) must be refused. */
  refuses(memberId: string, issuedAt: number): boolean {
    return this.revoked.has(memberId) || issuedAt < (this.validFrom.get(memberId) ?? 0);
  }

  replace(memberIds: Iterable<string>, validFrom: Iterable<[string, number]> = []): void {
    this.revoked = new Set(memberIds);
    this.validFrom = new Map(validFrom);
  }

  add(memberId: string): void {
    this.revoked.add(memberId);
  }

  protected accept(body: unknown): void {
    const members = (body as { members?: unknown } | null)?.members;
    if (!Array.isArray(members)) throw new Error('revocation list body has no members array');
    const validFrom = (body as { validFrom?: unknown }).validFrom ?? {};
    if (typeof validFrom !== 'object' || validFrom === null || Array.isArray(validFrom))
      throw new Error('revocation list validFrom is not an object');
    const times = Object.entries(validFrom as Record<string, unknown>);
    if (!times.every(([, at]) => Number.isInteger(at)))
      throw new Error('revocation list validFrom has a time that is not whole unix seconds');
    this.replace(members.map(String), times as [string, number][]);
  }
}
