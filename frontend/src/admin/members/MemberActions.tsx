import { useId, useState, type FormEvent } from 'react';

const DAYS_MAX = 366;
const REASON_MAX = 200;

/** Extend the membership by some days (saying why), cancel its renewal (asked twice), or end the member's sessions. */
export function MemberActions({
  username,
  busy,
  renews,
  onExtend,
  onCancelRenewal,
  onEndSessions,
}: {
  username: string;
  busy: boolean;
  /** The membership rebills: Cancel renewal is offered. */
  renews: boolean;
  /** True once extended: the reason is cleared for the next one. */
  onExtend: (days: number, reason: string) => Promise<boolean>;
  /** True once cancelled. */
  onCancelRenewal: () => Promise<boolean>;
  onEndSessions: () => void;
}) {
  const [asking, setAsking] = useState(false);
  const [days, setDays] = useState('30');
  const [reason, setReason] = useState('');
  const id = useId();

  async function extend(event: FormEvent) {
    event.preventDefault();
    if (await onExtend(Number(days), reason.trim())) setReason('');
  }

  return (
    <div className="admin-actions">
      <form className="admin-confirm" onSubmit={(e) => void extend(e)}>
        <label htmlFor={`${id}-days`}>Extend the membership by (days, 1–{DAYS_MAX})</label>
        <input
          id={`${id}-days`}
          type="number"
          inputMode="numeric"
          required
          min={1}
          max={DAYS_MAX}
          step={1}
          value={days}
          onChange={(e) => setDays(e.target.value)}
        />
        <label htmlFor={`${id}-why`}>Why?</label>
        <input id={`${id}-why`} required maxLength={REASON_MAX} value={reason} onChange={(e) => setReason(e.target.value)} />
        <button type="submit" disabled={busy}>
          Extend
        </button>
      </form>
      {renews && !asking && (
        <button type="button" className="admin-secondary" disabled={busy} onClick={() => setAsking(true)}>
          Cancel renewal
        </button>
      )}
      {renews && asking && (
        <div className="admin-confirm" role="group" aria-label="Cancel renewal">
          <p>Stop {username}'s rebilling at the card provider? Access runs to the paid-until day; the member gets a confirmation mail.</p>
          <button type="button" disabled={busy} onClick={() => void onCancelRenewal().then((done) => done && setAsking(false))}>
            Yes, cancel renewal
          </button>
          <button type="button" className="admin-secondary" disabled={busy} onClick={() => setAsking(false)}>
            Keep it
          </button>
        </div>
      )}
      <button type="button" className="admin-secondary" disabled={busy} onClick={onEndSessions}>
        End {username}'s sessions
      </button>
    </div>
  );
}
