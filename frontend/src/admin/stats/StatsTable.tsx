import type { StatsAnswer, StatsRow } from '@media-site/contracts/content-stats';
import { STATS_SORT_LABELS, type StatsSort } from '@media-site/contracts/stats-vocabulary';
import { KIND_TEXT, sitePath } from '../content/format';

/** The stats' item kinds as the Content screen names them. */
const KIND = { photo: 'photoset', video: 'video', vod: 'vod', model: 'model' } as const;

const COUNTS: readonly StatsSort[] = ['plays', 'completions', 'downloads', 'saves'];
const MONEY: readonly StatsSort[] = ['sales', 'revenue'];

/**
 * One page of items or models, largest first by the chosen count: each count's heading is a button
 * that sorts by it (aria-sort says which). An item opens its days; a model her items.
 */
export function StatsTable({
  answer,
  money,
  busy,
  onSort,
  onItem,
  onModel,
}: {
  answer: StatsAnswer;
  money: (cents: number) => string;
  busy: boolean;
  onSort: (sort: StatsSort) => void;
  onItem: (row: StatsRow) => void;
  onModel: (name: string) => void;
}) {
  const sorts = answer.money ? [...COUNTS, ...MONEY] : COUNTS;
  const models = answer.by === 'model';
  const caption = `${models ? 'Models' : 'Items'} by ${STATS_SORT_LABELS[answer.sort].toLowerCase()}, ${answer.from} to ${answer.to} (UTC), page ${answer.page}`;
  return (
    <div className="admin-table-wrap" role="region" aria-label={caption} tabIndex={0}>
      <table className="admin-stats-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{models ? 'Model' : 'Item'}</th>
            {!models && <th scope="col">Model</th>}
            {models && <th scope="col">Follows</th>}
            {sorts.map((s) => (
              <th key={s} scope="col" aria-sort={answer.sort === s ? 'descending' : 'none'} className="admin-num">
                <button type="button" className="admin-sort" disabled={busy || answer.sort === s} onClick={() => onSort(s)}>
                  {STATS_SORT_LABELS[s]}
                  {answer.sort === s ? ' ▼' : ''}
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {answer.rows.map((r) => (
            <StatsLine
              key={`${r.type} ${r.path}`}
              row={r}
              models={models}
              sorts={sorts}
              money={money}
              busy={busy}
              onItem={onItem}
              onModel={onModel}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** One item's or model's row: its name (opens its days or her items), then its counts. */
function StatsLine({
  row: r,
  models,
  sorts,
  money,
  busy,
  onItem,
  onModel,
}: {
  row: StatsRow;
  models: boolean;
  sorts: readonly StatsSort[];
  money: (cents: number) => string;
  busy: boolean;
  onItem: (row: StatsRow) => void;
  onModel: (name: string) => void;
}) {
  return (
    <tr>
      <td>
        {models ? (
          <button type="button" className="admin-link" disabled={busy} onClick={() => onModel(r.path)}>
            {r.title}
          </button>
        ) : (
          <>
            <button type="button" className="admin-link" disabled={busy} onClick={() => onItem(r)}>
              {r.title}
            </button>
            <br />
            <small>
              {KIND_TEXT[KIND[r.type]]}{' '}
              <a href={sitePath({ type: KIND[r.type], path: r.path })} target="_blank" rel="noreferrer">
                {sitePath({ type: KIND[r.type], path: r.path })}
              </a>
            </small>
          </>
        )}
      </td>
      {!models && (
        <td>
          {r.model ? (
            <button type="button" className="admin-link" disabled={busy} onClick={() => onModel(r.model!)}>
              {r.model}
            </button>
          ) : (
            '—'
          )}
        </td>
      )}
      {models && <td className="admin-num">{r.follows ?? 0}</td>}
      {sorts.map((s) => (
        <td key={s} className="admin-num">
          {s === 'revenue' ? money(r.revenue ?? 0) : (r[s] ?? 0)}
        </td>
      ))}
    </tr>
  );
}
