import { PolledList } from './polled-list';

/**
 * Member ids whose media access is withdrawn (cancellation, chargeback, disabled) before their
 * short-lived tokens and signed links run out. Checked on every request; refreshed from the bff's
 * `/internal/media-revocations` (`{ "members": ["12", ...] }`) every MEDIA_REVOCATION_INTERVAL_S,
 * so a revocation reaches the media service within one interval.
 */
export class RevocationList extends PolledList {
  protected readonly name = 'revocation';
  private revoked = new Set<string>();

  has(memberId: string): boolean {
    return this.revoked.has(memberId);
  }

  replace(memberIds: Iterable<string>): void {
    this.revoked = new Set(memberIds);
  }

  add(memberId: string): void {
    this.revoked.add(memberId);
  }

  protected accept(body: unknown): void {
    const members = (body as { members?: unknown } | null)?.members;
    if (!Array.isArray(members)) throw new Error('revocation list body has no members array');
    this.replace(members.map(String));
  }
}
