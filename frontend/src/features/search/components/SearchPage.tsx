import { Link, useParams } from 'react-router-dom';
import { ResourceView } from '../../../components/StatusMessage';
import { useResource } from '../../../hooks/useResource';
import type { SearchHit } from '../../api/types';
import { search } from '../api/search';

function Group({ title, route, hits }: { title: string; route: string; hits: SearchHit[] }) {
  return (
    <section>
      <h2>{title}</h2>
      {hits.length ? (
        <ul className="link-list">
          {hits.map((hit) => (
            <li key={hit.path}>
              <Link to={`${route}${encodeURIComponent(hit.path)}`}>{hit.updatename}</Link> <span className="muted">{hit.modelname}</span>
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

  return (
    <section>
      <h1>Search results for “{term}”</h1>
      <ResourceView resource={resource}>
        {(result) => (
          <>
            <Group title="Photos" route="/photos/" hits={result.photos} />
            <Group title="Videos" route="/video/" hits={result.videos} />
            <Group title="VOD" route="/vod/" hits={result.vods} />
          </>
        )}
      </ResourceView>
    </section>
  );
}
