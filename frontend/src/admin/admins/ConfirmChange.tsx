import { useState } from 'react';
import { adminApi, type AdminListRow, type Enrolment } from '../shared/api';

export type Risky = 'disable' | 'totp' | 'passkeys';

const CONFIRM_TEXT: Record<Risky, (name: string) => string> = {
  disable: (name) => `Disable ${name}? They cannot sign in until enabled again, and their console sessions end now.`,
  totp: (name) =>
    `Give ${name} a new TOTP secret? The old one stops working, their sessions end, and their passkeys are revoked (one added from a stolen session would let the thief back in).`,
  passkeys: (name) => `Revoke every passkey of ${name}? They sign in with their TOTP code until they add a new one.`,
};

const CONFIRM_BUTTON: Record<Risky, (name: string) => string> = {
  disable: (name) => `Disable ${name}`,
  totp: (name) => `New secret for ${name}`,
  passkeys: (name) => `Revoke passkeys of ${name}`,
};

/** "Are you sure?" for a change that locks an admin out or takes their keys, said in words first. */
export function ConfirmChange({
  a,
  what,
  busy,
  onAsk,
  act,
  onEnrolment,
}: {
  a: AdminListRow;
  what: Risky;
  busy: boolean;
  onAsk: (what: null) => void;
  act: (call: () => Promise<string>) => Promise<void>;
  onEnrolment: (enrolment: Enrolment) => void;
}) {
  const [keepPasskeys, setKeepPasskeys] = useState(false);
  const change: Record<Risky, () => Promise<string>> = {
    disable: async () => {
      const done = await adminApi.disableAdmin(a.name);
      return `${a.name} is disabled; ${done.sessionsEnded} console session(s) ended.`;
    },
    passkeys: async () => {
      const done = await adminApi.revokeAdminPasskeys(a.name);
      return `${done.revoked} passkey(s) of ${a.name} revoked.`;
    },
    totp: async () => {
      const reset = await adminApi.adminTotp(a.name, keepPasskeys);
      onEnrolment(reset);
      return `${a.name} has a new TOTP secret; the old one no longer works (${reset.sessionsEnded} console session(s) ended, ${reset.passkeysRevoked} passkey(s) revoked).`;
    },
  };
  return (
    <span className="admin-confirm" role="group" aria-label={`Confirm for ${a.name}`}>
      <span>{CONFIRM_TEXT[what](a.name)}</span>
      {what === 'totp' && a.passkeys > 0 && (
        <label>
          <input type="checkbox" checked={keepPasskeys} onChange={(e) => setKeepPasskeys(e.target.checked)} /> Keep their {a.passkeys}{' '}
          passkey(s): only if you know each is theirs
        </label>
      )}
      <button type="button" className="admin-danger" disabled={busy} autoFocus onClick={() => void act(change[what])}>
        {CONFIRM_BUTTON[what](a.name)}
      </button>
      <button type="button" className="admin-secondary" onClick={() => onAsk(null)}>
        Cancel
      </button>
    </span>
  );
}
