import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { StatsAnswer } from '@media-site/contracts/content-stats';
import { MONEY_SORTS, STATS_SORTS as COLUMNS, STATS_SORT_LABELS } from '@media-site/contracts/stats-vocabulary';
import { DayChart, type ChartSeries } from '../dashboard/DayChart';
import { Figures, moneyFormat } from '../dashboard/Figures';
import { statsApi } from '../shared/api';
import { ErrorText } from '../shared/ErrorText';
import { Table } from '../shared/Table';
import { useAdminCall } from '../shared/useAdminCall';
import { paramsOf, questionOf, type StatsQuestion } from './question';
import { StatsControls } from './StatsControls';
import { StatsTable } from './StatsTable';

// The Stats screen: what sells over the last 7, 30 or 90 days (UTC), per item or per model, sorted
// by any count, with the window's totals and a line per day. A model opens her items, an item its
// days. The question lives in the address. Sales and revenue only for the owner and support.

export function Stats({ money, onSignedOut }: { money: boolean; onSignedOut: () => void }) {
  const [params, setParams] = useSearchParams();
  const q = useMemo(() => questionOf(params, money), [params, money]);
  const [answer, setAnswer] = useState<StatsAnswer | undefined>(undefined);
  const { error, busy, run } = useAdminCall(onSignedOut);

  useEffect(() => {
    void run(() => statsApi.find(paramsOf(q))).then((a) => a && setAnswer(a));
  }, [run, q]);

  /** A new question: back to page 1 unless the page is what changes. */
  const ask = (change: Partial<StatsQuestion>) => setParams(paramsOf({ ...q, page: 1, ...change }));
  const cents = useMemo(() => moneyFormat(answer?.currencyCode ?? 840), [answer?.currencyCode]);

  return (
    <section aria-busy={busy}>
      <StatsControls q={q} busy={busy} onAsk={ask} />
      <p className="admin-hint">
        Plays and finishes come from members&apos; players, downloads from links members asked for, each counted once per member, item and
        day; saves are additions to My list{money ? '; sales and revenue are VOD purchases' : ''}.
      </p>
      <ErrorText message={error} />
      {answer && <Totals answer={answer} cents={cents} />}
      {answer && answer.rows.length === 0 && <p>Nothing counted in this window.</p>}
      {answer && answer.rows.length > 0 && (
        <StatsTable
          answer={answer}
          money={cents}
          busy={busy}
          onSort={(sort) => ask({ sort })}
          onItem={(row) => row.type !== 'model' && ask({ type: row.type, path: row.path, model: '' })}
          onModel={(model) => ask({ by: 'item', model, path: '' })}
        />
      )}
      {answer && (answer.page > 1 || answer.more) && (
        <nav className="admin-pager" aria-label="Pages">
          <button type="button" className="admin-secondary" disabled={busy || answer.page === 1} onClick={() => ask({ page: q.page - 1 })}>
            Previous page
          </button>
          <button type="button" className="admin-secondary" disabled={busy || !answer.more} onClick={() => ask({ page: q.page + 1 })}>
            Next page
          </button>
        </nav>
      )}
    </section>
  );
}

function Totals({ answer, cents }: { answer: StatsAnswer; cents: (n: number) => string }) {
  const t = answer.totals;
  const days = answer.perDay.map((d) => d.day);
  const series = useMemo<ChartSeries[]>(
    () => [
      { label: STATS_SORT_LABELS.plays, values: answer.perDay.map((d) => d.plays), color: '#0b57a4' },
      { label: STATS_SORT_LABELS.downloads, values: answer.perDay.map((d) => d.downloads), color: '#1d7a38', dash: [6, 4] },
      { label: STATS_SORT_LABELS.saves, values: answer.perDay.map((d) => d.saves), color: '#b35900', dash: [2, 3] },
      ...(answer.money
        ? [{ label: STATS_SORT_LABELS.sales, values: answer.perDay.map((d) => d.sales ?? 0), color: '#a10000', dash: [10, 3, 2, 3] }]
        : []),
    ],
    [answer],
  );
  const span = `${answer.from} to ${answer.to}`;
  return (
    <>
      <Figures
        items={[
          ['Plays', t.plays],
          ['Finished', t.completions],
          ['Downloads', t.downloads],
          ['Saves', t.saves],
          ...(answer.money
            ? ([
                ['VOD sales', t.sales ?? 0],
                ['Revenue', cents(t.revenue ?? 0)],
              ] as [string, string | number][])
            : []),
        ]}
      />
      <DayChart
        label={`Per day, ${span}: plays, downloads, saves${answer.money ? ' and sales' : ''} (figures in the table below)`}
        days={days}
        series={series}
      />
      <details className="admin-stats-days">
        <summary>Per day, as a table</summary>
        <Table
          caption={`Per day (UTC), newest first, ${span}`}
          columns={['Day', ...COLUMNS.filter((c) => answer.money || !MONEY_SORTS.includes(c)).map((c) => STATS_SORT_LABELS[c])]}
        >
          {[...answer.perDay].reverse().map((d) => (
            <tr key={d.day}>
              <td className="admin-nowrap">{d.day}</td>
              <td className="admin-num">{d.plays}</td>
              <td className="admin-num">{d.completions}</td>
              <td className="admin-num">{d.downloads}</td>
              <td className="admin-num">{d.saves}</td>
              {answer.money && <td className="admin-num">{d.sales ?? 0}</td>}
              {answer.money && <td className="admin-num">{cents(d.revenue ?? 0)}</td>}
            </tr>
          ))}
        </Table>
      </details>
    </>
  );
}
