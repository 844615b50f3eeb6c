import { useMemo } from 'react';
import type { DashboardData } from '../shared/api';
import { Table } from '../shared/Table';
import { DayChart, type ChartSeries } from './DayChart';
import { CURRENCIES, Figures, moneyFormat, sum } from './Figures';

// Members' and payments' figures per day: a chart, the totals as text, and the same figures as a table.

const NO_MEMBERS: NonNullable<DashboardData['members']> = [];

export function MembersSection({ data }: { data: DashboardData }) {
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

export function RevenueSection({ data }: { data: DashboardData }) {
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
