import { useState } from 'react';
import {
  DATE_LABEL,
  DURATION_LABEL,
  SEARCH_DATES,
  SEARCH_DURATIONS,
  SEARCH_SORTS,
  SORT_LABEL,
  type SearchType,
} from '@media-site/contracts/search-filters';
import type { SearchFacets } from '../../api/types';

/** The filters the page keeps in its address (the API's names and values). */
export const FILTER_NAMES = ['type', 'model', 'tag', 'duration', 'date', 'sort'] as const;
export type FilterName = (typeof FILTER_NAMES)[number];

const TYPE_LABEL: Record<SearchType, string> = { photos: 'Photos', videos: 'Videos', vods: 'VOD' };

interface Props {
  params: URLSearchParams;
  facets: SearchFacets | undefined;
  /** Sets one filter (undefined clears it), keeping the others. */
  set: (name: FilterName, value: string | undefined) => void;
  clear: () => void;
}

const counted = (label: string, count: number | undefined, capped: boolean) =>
  count === undefined ? label : `${label} (${count}${capped && count > 0 ? '+' : ''})`;

/** One row of toggles: the first clears the filter; each other value says how many it would show. */
function Choice({
  legend,
  name,
  current,
  options,
  allLabel,
  set,
}: {
  legend: string;
  name: FilterName;
  current: string | null;
  options: Array<{ value: string; label: string }>;
  allLabel: string;
  set: Props['set'];
}) {
  return (
    <div className="filter-row" role="group" aria-label={legend}>
      <span className="filter-legend">{legend}</span>
      <span className="filter-options">
        <button type="button" className="button chip" aria-pressed={current === null} onClick={() => set(name, undefined)}>
          {allLabel}
        </button>
        {options.map((o) => (
          <button
            key={o.value}
            type="button"
            className="button chip"
            aria-pressed={current === o.value}
            onClick={() => set(name, current === o.value ? undefined : o.value)}
          >
            {o.label}
          </button>
        ))}
      </span>
    </div>
  );
}

/**
 * The search's filters: type, running time, release window and tags as toggles with their counts
 * (from the answer), the sort as a select that shows the order in force, and what is active.
 */
export function SearchFilters({ params, facets, set, clear }: Props) {
  const capped = facets?.capped ?? false;
  const sort = params.get('sort') ?? 'alpha';
  const model = params.get('model');
  const tag = params.get('tag');
  const active = FILTER_NAMES.filter((n) => n !== 'sort' && params.has(n)).length;
  // On a phone the toggles fold away behind one button (they would fill the first screen); the
  // sort and "Clear filters" stay in view.
  const [open, setOpen] = useState(false);
  return (
    <div className="search-filters">
      <div className="filter-row">
        <label className="filter-legend" htmlFor="search-sort">
          Sorted by
        </label>
        <select id="search-sort" value={sort} onChange={(e) => set('sort', e.target.value === 'alpha' ? undefined : e.target.value)}>
          {SEARCH_SORTS.map((s) => (
            <option key={s} value={s}>
              {SORT_LABEL[s]}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="button filters-toggle"
          aria-expanded={open}
          aria-controls="search-filter-panel"
          onClick={() => setOpen(!open)}
        >
          Filters{active > 0 ? ` (${active})` : ''}
        </button>
        {active > 0 && (
          <button type="button" className="button" onClick={clear}>
            Clear filters ({active})
          </button>
        )}
      </div>
      <div id="search-filter-panel" className={open ? 'filter-panel is-open' : 'filter-panel'}>
        <Choice
          legend="Show"
          name="type"
          current={params.get('type')}
          allLabel="All"
          set={set}
          options={(['photos', 'videos', 'vods'] as const).map((t) => ({
            value: t,
            label: counted(TYPE_LABEL[t], facets?.types[t], capped),
          }))}
        />
        <Choice
          legend="Length"
          name="duration"
          current={params.get('duration')}
          allLabel="Any length"
          set={set}
          options={SEARCH_DURATIONS.map((d) => ({ value: d, label: counted(DURATION_LABEL[d], facets?.durations[d], capped) }))}
        />
        <Choice
          legend="Released"
          name="date"
          current={params.get('date')}
          allLabel="Any time"
          set={set}
          options={SEARCH_DATES.map((d) => ({ value: d, label: counted(DATE_LABEL[d], facets?.dates[d], capped) }))}
        />
        {facets && facets.tags.length > 0 && (
          <Choice
            legend="Tags"
            name="tag"
            current={tag}
            allLabel="Any tag"
            set={set}
            options={facets.tags.map((t) => ({ value: t.tag, label: counted(t.tag, t.count, capped) }))}
          />
        )}
        {model !== null && (
          <div className="filter-row">
            <span className="filter-legend">Model</span>
            <button
              type="button"
              className="button chip"
              aria-pressed="true"
              onClick={() => set('model', undefined)}
              aria-label={`Remove the filter: model ${model}`}
            >
              {model} ×
            </button>
          </div>
        )}
      </div>
    </div>
  );
}
