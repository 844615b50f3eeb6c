import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { adminApi, when, type DashboardData } from '../shared/api';
import { DayChart, type ChartSeries } from './DayChart';
import { ErrorText } from '../shared/ErrorText';
import { Table } from '../shared/Table';
import { useAdminCall } from '../shared/useAdminCall';

const DEFAULT_DAYS = '30';
// ISO 4217 numeric codes the billing providers send; anything else is shown by its number.
const CURRENCIES: Record<number, string> = { 36: 'AUD', 124: 'CAD', 392: 'JPY', 756: 'CHF', 826: 'GBP', 840: 'USD', 978: 'EUR' };

const moneyFormat = (code: number) => {
  const currency = CURRENCIES[code];
  const format = currency ? new Intl.NumberFormat('en', { style: 'currency', currency }) : undefined;
  return (cents: number) => (format ? format.format(cents / 100) : `${(cents / 100).toFixed(2)} (currency ${code})`);
};

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

const ago = (ms: number, now: number) => {
  const minutes = Math.max(0, Math.round((now - ms) / 60_000));
  if (minutes < 90) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} hours` : `${Math.round(hours / 24)} days`;
};

function Figures({ items }: { items: [string, string | number, string?][] }) {
  return (
    <dl className="admin-figures">
      {items.map(([name, value, tone]) => (
        <div key={name} className={tone ? `admin-figure admin-figure-${tone}` : 'admin-figure'}>
          <dt>{name}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

const NO_MEMBERS: NonNullable<DashboardData['members']> = [];

function MembersSection({ data }: { data: DashboardData }) {
  const rows = data.members ?? NO_MEMBERS;
  const series = useMemo<ChartSeries[]>(
    () => [
      { label: 'Active', values: rows.map((r) => r.active), color: '#0b57a4' },
      { label: 'New', values: rows.map((r) => r.new), color: '#1d7a38', dash: [6, 4] },
      { label: 'Cancelled', values: rows.map((r) => r.cancelled), color: '#b35900', dash: [2, 3] },
      { label: 'Charged back', values: rows.map((r) => r.chargedBack), color: '#a10000', dash: [10, 3, 2, 3] },
    ],
    [rows],
  );
  const total = (key: 'new' | 'cancelled' | 'chargedBack') => sum(rows.map((r) => r[key]));
  const span = `${rows.length} day${rows.length === 1 ? '' : 's'}`;
  return (
    <section aria-labelledby="dash-members">
      <h2 id="dash-members">Members</h2>
      <Figures
        items={[
          ['Active memberships now', rows.at(-1)?.active ?? 0],
          [`New in ${span}`, total('new')],
          [`Cancelled in ${span}`, total('cancelled')],
          [`Charged back in ${span}`, total('chargedBack'), total('chargedBack') > 0 ? 'amber' : undefined],
        ]}
      />
      <DayChart
        label={`Members per day over ${span}: active, new, cancelled and charged back (figures in the table below)`}
        days={data.days}
        series={series}
      />
      <details>
        <summary>Members per day, as a table</summary>
        <Table caption="Members per day (UTC)" columns={['Day', 'Active', 'New', 'Cancelled', 'Charged back']}>
          {rows.map((r) => (
            <tr key={r.day}>
              <td>{r.day}</td>
              <td>{r.active}</td>
              <td>{r.new}</td>
              <td>{r.cancelled}</td>
              <td>{r.chargedBack}</td>
            </tr>
          ))}
        </Table>
      </details>
    </section>
  );
}

function RevenueCurrency({ data, revenue }: { data: DashboardData; revenue: NonNullable<DashboardData['revenue']>[number] }) {
  const money = useMemo(() => moneyFormat(revenue.currencyCode), [revenue.currencyCode]);
  const series = useMemo<ChartSeries[]>(
    () => [
      { label: 'Membership sign-ups', values: revenue.days.map((d) => d.membership / 100), color: '#0b57a4' },
      { label: 'Membership renewals', values: revenue.days.map((d) => d.renewals / 100), color: '#6a3d9a', dash: [2, 3] },
      { label: 'VODs', values: revenue.days.map((d) => d.vod / 100), color: '#1d7a38', dash: [6, 4] },
    ],
    [revenue],
  );
  const axis = useMemo(() => (value: number) => money(Math.round(value * 100)), [money]);
  const name = CURRENCIES[revenue.currencyCode] ?? `currency ${revenue.currencyCode}`;
  return (
    <>
      <Figures
        items={[
          [`Sign-ups (${name})`, money(revenue.totalMembership)],
          [`Renewals (${name})`, money(revenue.totalRenewals)],
          [`VODs (${name})`, money(revenue.totalVod)],
          [`Total (${name})`, money(revenue.totalMembership + revenue.totalRenewals + revenue.totalVod)],
        ]}
      />
      <DayChart
        label={`Revenue per day in ${name}: membership sign-ups, renewals and VODs (figures in the table below)`}
        days={data.days}
        series={series}
        format={axis}
      />
      <details>
        <summary>Revenue per day in {name}, as a table</summary>
        <Table caption={`Revenue per day in ${name} (UTC)`} columns={['Day', 'Sign-ups', 'Renewals', 'VODs']}>
          {revenue.days.map((d) => (
            <tr key={d.day}>
              <td>{d.day}</td>
              <td>{money(d.membership)}</td>
              <td>{money(d.renewals)}</td>
              <td>{money(d.vod)}</td>
            </tr>
          ))}
        </Table>
      </details>
    </>
  );
}

function RevenueSection({ data }: { data: DashboardData }) {
  const revenue = data.revenue ?? [];
  return (
    <section aria-labelledby="dash-revenue">
      <h2 id="dash-revenue">Revenue</h2>
      <p className="admin-hint">
        Approved membership sign-ups and VOD purchases (by the day the payment started) and the renewals the billing provider reported (by
        the day it did).
      </p>
      {revenue.length === 0 && <p>No payments in these days.</p>}
      {revenue.map((r) => (
        <RevenueCurrency key={r.currencyCode} data={data} revenue={r} />
      ))}
    </section>
  );
}

function Queues({ data }: { data: DashboardData }) {
  const { encode, reports, purge } = data;
  return (
    <div className="admin-cards">
      {reports && (
        <section aria-labelledby="dash-reports" className="admin-card">
          <h2 id="dash-reports">Reports</h2>
          <Figures
            items={[
              ['Open', reports.open],
              ['Due today', reports.dueToday, reports.dueToday > 0 ? 'amber' : 'green'],
              ['Overdue', reports.overdue, reports.overdue > 0 ? 'red' : 'green'],
            ]}
          />
        </section>
      )}
      {encode && (
        <section aria-labelledby="dash-encode" className="admin-card">
          <h2 id="dash-encode">Encode queue</h2>
          <Figures
            items={[
              ['Waiting', encode.queued],
              ['Running', encode.running],
              ['Failed', encode.failed, encode.failed > 0 ? 'red' : 'green'],
              ['Waiting to retry', encode.retrying, encode.retrying > 0 ? 'amber' : undefined],
            ]}
          />
        </section>
      )}
      {purge && (
        <section aria-labelledby="dash-purge" className="admin-card">
          <h2 id="dash-purge">CDN purges</h2>
          {purge.oldest ? (
            <>
              <Figures items={[['Pending', purge.pending, 'amber']]} />
              <p>
                Oldest: a {purge.oldest.event} queued {when(purge.oldest.createdAt)} ({ago(purge.oldest.createdAt, data.now)} ago), tried{' '}
                {purge.oldest.attempts} time{purge.oldest.attempts === 1 ? '' : 's'}
                {purge.oldest.lastError ? `; last error: ${purge.oldest.lastError}` : ''}.
              </p>
            </>
          ) : (
            <Figures items={[['Pending', 0, 'green']]} />
          )}
        </section>
      )}
    </div>
  );
}

function Operations({ data }: { data: DashboardData }) {
  const errors = data.errors ?? [];
  const lists = data.mediaLists ?? [];
  return (
    <>
      <section aria-labelledby="dash-lists">
        <h2 id="dash-lists">Media services&apos; lists</h2>
        <p className="admin-hint">
          When each media service last fetched its revocation and takedown lists from the site. One past its bound keeps serving what those
          lists would refuse (it also reports itself unready on <code>/readyz</code>): look at that service.
        </p>
        {lists.length === 0 ? (
          <p>No media service has fetched a list yet.</p>
        ) : (
          <Table caption="The stalest first" columns={['Media service', 'List', 'Fetched', 'Bound', 'State']}>
            {lists.map((l) => (
              <tr key={`${l.instance}-${l.list}`}>
                <td>{l.instance}</td>
                <td>{l.list}</td>
                <td>{l.ageSeconds < 120 ? `${l.ageSeconds} s` : ago(l.fetchedAt, data.now)} ago</td>
                <td>{l.maxAgeSeconds === null ? 'not said' : `${l.maxAgeSeconds} s`}</td>
                <td>{l.late ? <strong className="admin-late">Late: past its bound</strong> : 'Current'}</td>
              </tr>
            ))}
          </Table>
        )}
      </section>
      <section aria-labelledby="dash-errors">
        <h2 id="dash-errors">Recent errors</h2>
        <p className="admin-hint">
          The failures the database records: encodes that failed, mail given up on, and purges still retrying. Application logs are not kept
          in the database; read them with <code>docker compose logs</code>.
        </p>
        {errors.length === 0 ? (
          <p>No errors recorded.</p>
        ) : (
          <Table caption={`The ${errors.length} newest, newest first`} columns={['When', 'Kind', 'What', 'Error']}>
            {errors.map((e, i) => (
              <tr key={`${e.source}-${e.at}-${i}`}>
                <td>{when(e.at)}</td>
                <td>{e.source}</td>
                <td>{e.subject}</td>
                <td>{e.text}</td>
              </tr>
            ))}
          </Table>
        )}
      </section>
    </>
  );
}

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
