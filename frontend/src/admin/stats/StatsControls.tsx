import { useId } from 'react';
import { STATS_WINDOWS, type StatsType } from '@media-site/contracts/stats-vocabulary';
import type { StatsQuestion } from './question';

const TYPE_TEXT: Record<StatsType, string> = { photo: 'Photo sets', video: 'Videos', vod: 'VODs' };

/** The window, items or models, a type; and the model or item the table is narrowed to, each with a way back. */
export function StatsControls({ q, busy, onAsk }: { q: StatsQuestion; busy: boolean; onAsk: (change: Partial<StatsQuestion>) => void }) {
  const id = useId();
  return (
    <>
      <div className="admin-inline admin-filters" role="group" aria-label="What to count">
        <label htmlFor={`${id}-days`}>Window</label>
        <select id={`${id}-days`} value={q.days} disabled={busy} onChange={(e) => onAsk({ days: Number(e.target.value) })}>
          {STATS_WINDOWS.map((d) => (
            <option key={d} value={d}>
              Last {d} days
            </option>
          ))}
        </select>
        <label htmlFor={`${id}-by`}>Show</label>
        <select
          id={`${id}-by`}
          value={q.by}
          disabled={busy}
          onChange={(e) => onAsk({ by: e.target.value === 'model' ? 'model' : 'item', model: '', path: '' })}
        >
          <option value="item">Items</option>
          <option value="model">Models</option>
        </select>
        <label htmlFor={`${id}-type`}>Type</label>
        <select
          id={`${id}-type`}
          value={q.type}
          disabled={busy}
          onChange={(e) => onAsk({ type: e.target.value as StatsType | '', path: '' })}
        >
          <option value="">All types</option>
          {(Object.keys(TYPE_TEXT) as StatsType[]).map((t) => (
            <option key={t} value={t}>
              {TYPE_TEXT[t]}
            </option>
          ))}
        </select>
      </div>
      {(q.model || q.path) && (
        <p className="admin-stats-scope">
          {q.model && (
            <>
              Model <strong>{q.model}</strong>{' '}
              <button type="button" className="admin-secondary" disabled={busy} onClick={() => onAsk({ model: '', path: '' })}>
                All models
              </button>{' '}
            </>
          )}
          {q.path && (
            <>
              Item <strong>{q.path}</strong>{' '}
              <button type="button" className="admin-secondary" disabled={busy} onClick={() => onAsk({ path: '' })}>
                All items
              </button>
            </>
          )}
        </p>
      )}
    </>
  );
}
