import { useEffect, useState, type FormEvent } from 'react';
import { adminApi, when, type DashboardData } from '../shared/api';
import { ErrorText } from '../shared/ErrorText';
import { useAdminCall } from '../shared/useAdminCall';
import { Operations } from './Operations';
import { MembersSection, RevenueSection } from './PerDay';
import { Queues } from './Queues';

const DEFAULT_DAYS = '30';

/** Figures per day and the queues that need someone, each part as the role may see it (the owner's first screen). */
export function Dashboard({ onSignedOut }: { onSignedOut: () => void }) {
  const [days, setDays] = useState(DEFAULT_DAYS);
  const [data, setData] = useState<DashboardData | undefined>(undefined);
  const { error, busy, run } = useAdminCall(onSignedOut);

  const load = (wanted: string) => void run(() => adminApi.dashboard(wanted)).then((found) => found && setData(found));

  useEffect(() => {
    void run(() => adminApi.dashboard(DEFAULT_DAYS)).then((found) => found && setData(found));
  }, [run]);

  const perDay = Boolean(data?.sections.members || data?.sections.payments);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    load(days.trim());
  };

  return (
    <section aria-busy={busy} className="admin-dashboard">
      {/* Figures per day are members' and payments'; a role without them has no window to set. */}
      {(!data || perDay) && (
        <form className="admin-inline" onSubmit={submit} noValidate>
          <label htmlFor="dash-days">Days shown (1 to 90)</label>
          <input id="dash-days" inputMode="numeric" size={4} maxLength={4} value={days} onChange={(e) => setDays(e.target.value)} />
          <button type="submit" disabled={busy}>
            Show
          </button>
        </form>
      )}
      <ErrorText message={error} />
      {data && (
        <>
          <p className="admin-hint">
            {perDay
              ? `The ${data.days.length} day${data.days.length === 1 ? '' : 's'} ${data.days[0]} to ${data.days.at(-1)} (UTC days), read at ${when(data.now)}.`
              : `Read at ${when(data.now)}.`}
          </p>
          <Queues data={data} />
          {data.members && <MembersSection data={data} />}
          {data.revenue && <RevenueSection data={data} />}
          {data.sections.operations && <Operations data={data} />}
        </>
      )}
    </section>
  );
}
