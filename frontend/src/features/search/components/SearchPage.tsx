import { Link, useParams, useSearchParams } from 'react-router-dom';
import type { SearchType } from '@media-site/contracts/search-filters';
import { MixedListedCard } from '../../../components/MediaCard';
import { ResourceView } from '../../../components/StatusMessage';
import { usePageTitle } from '../../../hooks/usePageTitle';
import { useResource } from '../../../hooks/useResource';
import type { SearchHit, SearchResult } from '../../api/types';
import { search, searchUrl, SearchTermError } from '../api/search';
import { FILTER_NAMES, SearchFilters, type FilterName } from './SearchFilters';

/** One group of results, in the listings' cards: picture, title, badges and facts, the model linked below. */
function Group({ title, section, hits }: { title: string; section: 'photos' | 'video' | 'vod'; hits: SearchHit[] }) {
  return (
    <section>
      <h2>{title}</h2>
      {hits.length ? (
        <ul className="grid grid-gallery">
          {hits.map((hit) => (
            <MixedListedCard key={hit.path} item={hit} section={section}>
              <Link to={`/models/${encodeURIComponent(hit.modelname)}`} className="search-hit-model">
                {hit.modelname}
              </Link>
            </MixedListedCard>
          ))}
        </ul>
      ) : (
        <p className="muted">No matches.</p>
      )}
    </section>
  );
}

const GROUPS: Array<{ type: SearchType; title: string; section: 'photos' | 'video' | 'vod'; hits: (r: SearchResult) => SearchHit[] }> = [
  { type: 'photos', title: 'Photos', section: 'photos', hits: (r) => r.photos },
  { type: 'videos', title: 'Videos', section: 'video', hits: (r) => r.videos },
  { type: 'vods', title: 'VOD', section: 'vod', hits: (r) => r.vods },
];

/** Only the filters the API knows, in its order: a stray parameter in a shared link is dropped, not refused. */
function filtersOf(params: URLSearchParams): URLSearchParams {
  const kept = new URLSearchParams();
  for (const name of FILTER_NAMES) {
    const value = params.get(name);
    if (value) kept.set(name, value);
  }
  return kept;
}

// /search/{term} (the spec's page) and /search?tag=… (filters alone, from a tag on an item page).
export function SearchPage() {
  const term = useParams().term ?? '';
  const [params] = useSearchParams();
  const filters = filtersOf(params);
  // Nothing to search for (filters cleared on a tag's page): say how to search instead of asking.
  if (!term && ![...filters.keys()].some((name) => name !== 'sort')) return <NothingToSearch />;
  return <Results term={term} filters={filters} />;
}

function NothingToSearch() {
  usePageTitle('Search');
  return (
    <section>
      <h1>Search</h1>
      <p className="muted">Search titles and model names with the search box, or open a tag on any photo set, video or VOD page.</p>
    </section>
  );
}

function Results({ term, filters }: { term: string; filters: URLSearchParams }) {
  const [, setParams] = useSearchParams();
  const url = searchUrl(term, filters);
  const resource = useResource(`search:${url}`, (signal) => search(url, signal));
  const tag = filters.get('tag');
  usePageTitle(term ? `Search: ${term}` : `Tag: ${tag ?? 'search'}`);

  const set = (name: FilterName, value: string | undefined) => {
    const next = new URLSearchParams(filters);
    if (value === undefined) next.delete(name);
    else next.set(name, value);
    setParams(next);
  };
  const type = filters.get('type');

  return (
    <section>
      <h1>{term ? <>Search results for “{term}”</> : tag ? <>Tagged “{tag}”</> : 'Search results'}</h1>
      <SearchFilters
        params={filters}
        facets={resource.status === 'success' ? resource.data.facets : undefined}
        set={set}
        clear={() => setParams(filters.has('sort') ? { sort: filters.get('sort')! } : {})}
      />
      {resource.status === 'error' && resource.error instanceof SearchTermError ? (
        <p className="status status-error" role="alert">
          {capitalise(resource.error.message)}.
        </p>
      ) : (
        <ResourceView resource={resource}>
          {(result) => (
            <>
              {GROUPS.filter((g) => type === null || g.type === type).map((g) => (
                <Group key={g.type} title={g.title} section={g.section} hits={g.hits(result)} />
              ))}
            </>
          )}
        </ResourceView>
      )}
    </section>
  );
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
