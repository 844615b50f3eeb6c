import { useId, useState, type FormEvent } from 'react';
import type { ContentKind, ContentQuery, ContentState } from '../shared/api';
import { KIND_TEXT, STATE_TEXT } from './format';

/** Title, model or path, a type and a state: the search starts again from page 1. */
export function ContentFilters({ busy, onSearch }: { busy: boolean; onSearch: (query: ContentQuery) => void }) {
  const [form, setForm] = useState<ContentQuery>({ q: '', type: '', state: 'all', page: 1 });
  const id = useId();

  function search(event: FormEvent) {
    event.preventDefault();
    onSearch({ ...form, q: form.q.trim(), page: 1 });
  }

  return (
    <form role="search" className="admin-inline admin-filters" onSubmit={search}>
      <label htmlFor={`${id}-q`}>Title, model or path</label>
      <input id={`${id}-q`} type="search" maxLength={100} value={form.q} onChange={(e) => setForm({ ...form, q: e.target.value })} />
      <label htmlFor={`${id}-type`}>Type</label>
      <select id={`${id}-type`} value={form.type} onChange={(e) => setForm({ ...form, type: e.target.value as ContentKind | '' })}>
        <option value="">All items</option>
        {(Object.keys(KIND_TEXT) as ContentKind[]).map((k) => (
          <option key={k} value={k}>
            {k === 'model' ? 'Models' : `${KIND_TEXT[k]}s`}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-state`}>State</label>
      <select id={`${id}-state`} value={form.state} onChange={(e) => setForm({ ...form, state: e.target.value as ContentState })}>
        {(Object.keys(STATE_TEXT) as ContentState[]).map((s) => (
          <option key={s} value={s}>
            {STATE_TEXT[s]}
          </option>
        ))}
      </select>
      <button type="submit" disabled={busy}>
        Find
      </button>
    </form>
  );
}
