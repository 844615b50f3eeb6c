import { useState } from 'react';
import { adminApi, type AdminListRow, type Enrolment } from '../shared/api';
import { ErrorText } from '../shared/ErrorText';
import { Notice } from '../shared/Notice';
import { Table } from '../shared/Table';
import { useListScreen } from '../shared/useListScreen';
import { AddAdminForm } from './AddAdminForm';
import { AdminRow, type Ask } from './AdminRow';
import { EnrolmentPanel } from './EnrolmentPanel';

// Admins (owners only): add one (its TOTP secret shown once), change a role, give a new TOTP secret
// (revoking their passkeys unless kept), revoke their passkeys, set where their notices go, disable
// and enable. The same db services as `admin add|role|totp|revoke-passkeys|email|disable|enable|
// list|rekey`; each change asks the owner to confirm it is them first (useAdminCall); the last active
// owner can be neither disabled nor demoted (the API says so).

export function Admins({ me, onSignedOut }: { me: string; onSignedOut: () => void }) {
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [confirming, setConfirming] = useState<{ name: string; what: Ask } | null>(null);
  const { list, notice, error, busy, act: change } = useListScreen(adminApi.admins, onSignedOut);
  const admins: AdminListRow[] | undefined = list?.admins;
  const act = (call: () => Promise<string>) => change(call, () => setConfirming(null));

  const rekey = async () => {
    const done = await adminApi.rekeyAdmins();
    return `${done.resealed} TOTP secret(s) re-sealed under key "${done.kid}" of ADMIN_SECRET_KEYS.`;
  };

  return (
    <section aria-busy={busy}>
      <ErrorText message={error} />
      <Notice text={notice} />
      {enrolment && <EnrolmentPanel e={enrolment} onDone={() => setEnrolment(null)} />}
      <AddAdminForm busy={busy} act={act} onAdded={setEnrolment} />
      {admins && (
        <Table caption={`${admins.length} admin(s)`} columns={['Name', 'Role', 'State', 'Passkeys', 'Notices to', 'Since', 'Change']}>
          {admins.map((a) => (
            <AdminRow
              key={a.name}
              a={a}
              me={me}
              busy={busy}
              asking={confirming?.name === a.name ? confirming.what : null}
              onAsk={(what) => setConfirming(what === null ? null : { name: a.name, what })}
              act={act}
              onEnrolment={setEnrolment}
            />
          ))}
        </Table>
      )}
      <p className="admin-rekey">
        <button type="button" className="admin-secondary" disabled={busy} onClick={() => void act(rekey)}>
          Re-seal every TOTP secret under the current key
        </button>{' '}
        (after adding a key to the front of ADMIN_SECRET_KEYS; the same as <code>admin rekey</code>)
      </p>
    </section>
  );
}
