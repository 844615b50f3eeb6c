import { Link, useParams } from 'react-router-dom';
import { MixedListedCard } from '../../../components/MediaCard';
import { ResourceView } from '../../../components/StatusMessage';
import { usePageTitle } from '../../../hooks/usePageTitle';
import { useResource } from '../../../hooks/useResource';
import type { SearchHit } from '../../api/types';
import { search, SearchTermError } from '../api/search';

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
              <Group title="Photos" section="photos" hits={result.photos} />
              <Group title="Videos" section="video" hits={result.videos} />
              <Group title="VOD" section="vod" hits={result.vods} />
            </>
          )}
        </ResourceView>
      )}
    </section>
  );
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
