import { Link, useParams } from 'react-router-dom';
import { LazyImage } from '../../../components/LazyImage';
import { ResourceView } from '../../../components/StatusMessage';
import { usePageTitle } from '../../../hooks/usePageTitle';
import { useResource } from '../../../hooks/useResource';
import type { SearchHit } from '../../api/types';
import { search, SearchTermError } from '../api/search';

function Group({ title, route, hits }: { title: string; route: string; hits: SearchHit[] }) {
  return (
    <section>
      <h2>{title}</h2>
      {hits.length ? (
        <ul className="search-results">
          {hits.map((hit) => (
            <li key={hit.path} className="search-hit">
              <Link to={`${route}${encodeURIComponent(hit.path)}`} className="search-hit-link">
                {/* The title is in the same link: the thumbnail is decorative. */}
                {hit.thumbnail ? <LazyImage src={hit.thumbnail} alt="" sizes="160px" width={160} height={120} /> : null}
                <span className="search-hit-title">{hit.updatename}</span>
              </Link>
              <Link to={`/models/${encodeURIComponent(hit.modelname)}`} className="search-hit-model">
                {hit.modelname}
              </Link>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No matches.</p>
      )}
    </section>
  );
}

export function SearchPage() {
  const term = useParams().term ?? '';
  const resource = useResource(`search:${term}`, (signal) => search(term, signal));
  usePageTitle(`Search: ${term}`);

  return (
    <section>
      <h1>Search results for “{term}”</h1>
      {resource.status === 'error' && resource.error instanceof SearchTermError ? (
        <p className="status status-error" role="alert">
          {capitalise(resource.error.message)}.
        </p>
      ) : (
        <ResourceView resource={resource}>
          {(result) => (
            <>
              <Group title="Photos" route="/photos/" hits={result.photos} />
              <Group title="Videos" route="/video/" hits={result.videos} />
              <Group title="VOD" route="/vod/" hits={result.vods} />
            </>
          )}
        </ResourceView>
      )}
    </section>
  );
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
