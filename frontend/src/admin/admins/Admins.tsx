import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { adminApi, when, type AdminListRow, type AdminRole, type Enrolment } from '../shared/api';
import { ErrorText } from '../shared/ErrorText';
import { Table } from '../shared/Table';
import { useAdminCall } from '../shared/useAdminCall';

// Admins (owners only): add one (its TOTP secret shown once), change a role, give a new TOTP secret
// (revoking their passkeys unless kept), revoke their passkeys, set where their notices go, disable
// and enable. The same db services as `admin add|role|totp|revoke-passkeys|email|disable|enable|
// list|rekey`; each change asks the owner to confirm it is them first (useAdminCall); the last active
// owner can be neither disabled nor demoted (the API says so).

const ADMIN_ROLES: readonly AdminRole[] = ['owner', 'moderator', 'support'];

const ROLE_TEXT: Record<AdminRole, string> = {
  owner: 'Owner (everything, admins included)',
  moderator: 'Moderator (reports, takedowns, content)',
  support: 'Support (members, payments)',
};

/** A new admin's (or a reset) secret: shown once, as text and as an otpauth:// URI. */
function EnrolmentPanel({ e, onDone }: { e: Enrolment; onDone: () => void }) {
  const id = useId();
  return (
    <section className="admin-enrolment" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>TOTP secret for {e.name}: shown once</h2>
      <p>
        Give it to {e.name} now, by a private channel: they add it to an authenticator app, then sign in at /admin with their name and a
        6-digit code, and add a passkey there. Nobody can show it again; a lost one needs a new secret.
      </p>
      <p>
        <span id={`${id}-s`}>Secret</span>:{' '}
        <code aria-labelledby={`${id}-s`} className="admin-secret">
          {e.secret}
        </code>{' '}
        <span className="admin-hint">(base32: letters A-Z and digits 2-7 only, so never a zero or a one)</span>
      </p>
      <label htmlFor={`${id}-uri`}>Enrolment URI (paste into an authenticator app, or make a QR code of it offline)</label>
      <textarea id={`${id}-uri`} readOnly rows={3} value={e.uri} onFocus={(ev) => ev.target.select()} />
      <p>
        <button type="button" onClick={onDone}>
          Done: hide the secret
        </button>
      </p>
    </section>
  );
}

const CONFIRM_TEXT: Record<'disable' | 'totp' | 'passkeys', (name: string) => string> = {
  disable: (name) => `Disable ${name}? They cannot sign in until enabled again, and their console sessions end now.`,
  totp: (name) =>
    `Give ${name} a new TOTP secret? The old one stops working, their sessions end, and their passkeys are revoked (one added from a stolen session would let the thief back in).`,
  passkeys: (name) => `Revoke every passkey of ${name}? They sign in with their TOTP code until they add a new one.`,
};

const CONFIRM_BUTTON: Record<'disable' | 'totp' | 'passkeys', (name: string) => string> = {
  disable: (name) => `Disable ${name}`,
  totp: (name) => `New secret for ${name}`,
  passkeys: (name) => `Revoke passkeys of ${name}`,
};

export function Admins({ me, onSignedOut }: { me: string; onSignedOut: () => void }) {
  const [admins, setAdmins] = useState<AdminListRow[] | undefined>(undefined);
  const [notice, setNotice] = useState('');
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [name, setName] = useState('');
  const [role, setRole] = useState<AdminRole | ''>('');
  const [email, setEmail] = useState('');
  const [confirming, setConfirming] = useState<{ name: string; what: 'disable' | 'totp' | 'passkeys' | 'email' } | null>(null);
  const [keepPasskeys, setKeepPasskeys] = useState(false);
  const [newEmail, setNewEmail] = useState('');
  const [roles, setRoles] = useState<Record<string, AdminRole>>({});
  const { error, busy, run } = useAdminCall(onSignedOut);
  const id = useId();

  const load = useCallback(async () => {
    const found = await run(() => adminApi.admins());
    if (found) setAdmins(found.admins);
  }, [run]);

  useEffect(() => {
    void load();
  }, [load]);

  async function act(call: () => Promise<string>) {
    setNotice('');
    const done = await run(call);
    setConfirming(null);
    if (done === undefined) return;
    setNotice(done);
    await load();
  }

  async function add(event: FormEvent) {
    event.preventDefault();
    if (role === '') return;
    await act(async () => {
      const added = await adminApi.addAdmin(name.trim(), role, email.trim());
      setEnrolment(added);
      setName('');
      setRole('');
      setEmail('');
      return `${added.name} is added as ${added.role}.`;
    });
  }

  const newSecret = (who: string) =>
    act(async () => {
      const reset = await adminApi.adminTotp(who, keepPasskeys);
      setEnrolment(reset);
      return `${who} has a new TOTP secret; the old one no longer works (${reset.sessionsEnded} console session(s) ended, ${reset.passkeysRevoked} passkey(s) revoked).`;
    });

  return (
    <section aria-busy={busy}>
      <ErrorText message={error} />
      {notice && (
        <p role="status" className="admin-notice">
          {notice}
        </p>
      )}
      {enrolment && <EnrolmentPanel e={enrolment} onDone={() => setEnrolment(null)} />}
      <form className="admin-inline admin-add" onSubmit={(e) => void add(e)} aria-label="Add an admin">
        <label htmlFor={`${id}-name`}>New admin's name</label>
        <input
          id={`${id}-name`}
          required
          maxLength={32}
          pattern="[a-z][a-z0-9_]{2,31}"
          title="3-32 lower-case letters, digits or _, starting with a letter"
          autoComplete="off"
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <label htmlFor={`${id}-role`}>Role</label>
        <select id={`${id}-role`} required value={role} onChange={(e) => setRole(e.target.value as AdminRole)}>
          <option value="">Choose…</option>
          {ADMIN_ROLES.map((r) => (
            <option key={r} value={r}>
              {ROLE_TEXT[r]}
            </option>
          ))}
        </select>
        <label htmlFor={`${id}-email`}>E-mail for notices (optional)</label>
        <input
          id={`${id}-email`}
          type="email"
          maxLength={254}
          autoComplete="off"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <button type="submit" disabled={busy}>
          Add admin
        </button>
      </form>
      {admins && (
        <Table caption={`${admins.length} admin(s)`} columns={['Name', 'Role', 'State', 'Passkeys', 'Notices to', 'Since', 'Change']}>
          {admins.map((a) => {
            const chosen = roles[a.name] ?? a.role;
            const asking = confirming?.name === a.name ? confirming.what : null;
            return (
              <tr key={a.name}>
                <td>
                  {a.name}
                  {a.name === me && ' (you)'}
                </td>
                <td>{a.role}</td>
                <td>{a.disabledAt === null ? 'active' : `disabled ${when(a.disabledAt)}`}</td>
                <td>{a.passkeys}</td>
                <td>{a.email ?? '—'}</td>
                <td>{when(a.createdAt)}</td>
                <td>
                  {a.disabledAt !== null && asking === null && (
                    <button
                      type="button"
                      className="admin-secondary"
                      disabled={busy}
                      onClick={() =>
                        void act(async () => {
                          await adminApi.enableAdmin(a.name);
                          return `${a.name} may sign in again, with the passkeys and TOTP secret they had.`;
                        })
                      }
                    >
                      Enable {a.name}
                    </button>
                  )}
                  {a.disabledAt === null && asking === null && (
                    <span className="admin-inline">
                      <label htmlFor={`${id}-${a.name}-role`} className="admin-visually-hidden">
                        New role for {a.name}
                      </label>
                      <select
                        id={`${id}-${a.name}-role`}
                        value={chosen}
                        onChange={(e) => setRoles({ ...roles, [a.name]: e.target.value as AdminRole })}
                      >
                        {ADMIN_ROLES.map((r) => (
                          <option key={r} value={r}>
                            {r}
                          </option>
                        ))}
                      </select>
                      <button
                        type="button"
                        className="admin-secondary"
                        disabled={busy || chosen === a.role}
                        onClick={() =>
                          void act(async () => {
                            const changed = await adminApi.adminRole(a.name, chosen);
                            return `${a.name} is now ${changed.after} (was ${changed.before}).`;
                          })
                        }
                      >
                        Change role of {a.name}
                      </button>
                      <button
                        type="button"
                        className="admin-secondary"
                        onClick={() => {
                          setKeepPasskeys(false);
                          setConfirming({ name: a.name, what: 'totp' });
                        }}
                      >
                        New TOTP secret…
                      </button>
                      {a.passkeys > 0 && (
                        <button type="button" className="admin-secondary" onClick={() => setConfirming({ name: a.name, what: 'passkeys' })}>
                          Revoke passkeys…
                        </button>
                      )}
                      <button
                        type="button"
                        className="admin-secondary"
                        onClick={() => {
                          setNewEmail(a.email ?? '');
                          setConfirming({ name: a.name, what: 'email' });
                        }}
                      >
                        E-mail…
                      </button>
                      <button type="button" className="admin-secondary" onClick={() => setConfirming({ name: a.name, what: 'disable' })}>
                        Disable…
                      </button>
                    </span>
                  )}
                  {asking === 'email' && (
                    <form
                      className="admin-confirm"
                      aria-label={`E-mail for ${a.name}`}
                      onSubmit={(e) => {
                        e.preventDefault();
                        void act(async () => {
                          const done = await adminApi.adminEmail(a.name, newEmail.trim());
                          return done.email ? `${a.name}'s notices go to ${done.email}.` : `${a.name} gets no notices by mail.`;
                        });
                      }}
                    >
                      <label htmlFor={`${id}-${a.name}-email`}>Notices to (empty for none)</label>
                      <input
                        id={`${id}-${a.name}-email`}
                        type="email"
                        maxLength={254}
                        value={newEmail}
                        onChange={(e) => setNewEmail(e.target.value)}
                        autoFocus
                      />
                      <button type="submit" disabled={busy}>
                        Save e-mail of {a.name}
                      </button>
                      <button type="button" className="admin-secondary" onClick={() => setConfirming(null)}>
                        Cancel
                      </button>
                    </form>
                  )}
                  {asking !== null && asking !== 'email' && (
                    <span className="admin-confirm" role="group" aria-label={`Confirm for ${a.name}`}>
                      <span>{CONFIRM_TEXT[asking](a.name)}</span>
                      {asking === 'totp' && a.passkeys > 0 && (
                        <label>
                          <input type="checkbox" checked={keepPasskeys} onChange={(e) => setKeepPasskeys(e.target.checked)} /> Keep their{' '}
                          {a.passkeys} passkey(s): only if you know each is theirs
                        </label>
                      )}
                      <button
                        type="button"
                        className="admin-danger"
                        disabled={busy}
                        autoFocus
                        onClick={() =>
                          void (asking === 'disable'
                            ? act(async () => {
                                const done = await adminApi.disableAdmin(a.name);
                                return `${a.name} is disabled; ${done.sessionsEnded} console session(s) ended.`;
                              })
                            : asking === 'passkeys'
                              ? act(async () => {
                                  const done = await adminApi.revokeAdminPasskeys(a.name);
                                  return `${done.revoked} passkey(s) of ${a.name} revoked.`;
                                })
                              : newSecret(a.name))
                        }
                      >
                        {CONFIRM_BUTTON[asking](a.name)}
                      </button>
                      <button type="button" className="admin-secondary" onClick={() => setConfirming(null)}>
                        Cancel
                      </button>
                    </span>
                  )}
                </td>
              </tr>
            );
          })}
        </Table>
      )}
      <p className="admin-rekey">
        <button
          type="button"
          className="admin-secondary"
          disabled={busy}
          onClick={() =>
            void act(async () => {
              const done = await adminApi.rekeyAdmins();
              return `${done.resealed} TOTP secret(s) re-sealed under key "${done.kid}" of ADMIN_SECRET_KEYS.`;
            })
          }
        >
          Re-seal every TOTP secret under the current key
        </button>{' '}
        (after adding a key to the front of ADMIN_SECRET_KEYS; the same as <code>admin rekey</code>)
      </p>
    </section>
  );
}
