import { useId, useState, type FormEvent } from 'react';

const DAYS_MAX = 366;
const REASON_MAX = 200;

/** Extend the membership by some days (saying why), or end the member's sessions. */
export function MemberActions({
  username,
  busy,
  onExtend,
  onEndSessions,
}: {
  username: string;
  busy: boolean;
  /** True once extended: the reason is cleared for the next one. */
  onExtend: (days: number, reason: string) => Promise<boolean>;
  onEndSessions: () => void;
}) {
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
      <button type="button" className="admin-secondary" disabled={busy} onClick={onEndSessions}>
        End {username}'s sessions
      </button>
    </div>
  );
}
