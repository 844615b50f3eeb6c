import { Link, useParams } from 'react-router-dom';
import { DetailError, Loading } from '../../../components/StatusMessage';
import { usePageTitle } from '../../../hooks/usePageTitle';
import { useResource } from '../../../hooks/useResource';
import { getModelDetail } from '../api/getModelDetail';

const NO_DETAILS = <p className="status">No Model Details Available</p>;

function Section({ title, route, items }: { title: string; route: string; items: { path: string; updatename: string }[] }) {
  if (!items.length) return null;
  return (
    <section>
      <h2>{title}</h2>
      <ul className="link-list">
        {items.map((item) => (
          <li key={item.path}>
            <Link to={`${route}${encodeURIComponent(item.path)}`}>{item.updatename}</Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function ModelDetailPage() {
  const name = useParams().name ?? '';
  const resource = useResource(`model:${name}`, (signal) => getModelDetail(name, signal));
  usePageTitle(name);

  if (resource.status === 'loading') return <Loading />;
  if (resource.status === 'error') {
    // Spec: an unknown model reads "No Model Details Available", said inside the shared card.
    return (
      <DetailError
        error={resource.error}
        onRetry={resource.retry}
        back={{ to: '/models', label: 'Back to the models' }}
        detail="No Model Details Available"
      />
    );
  }
  const { photos, videos, vods } = resource.data;
  return (
    <section>
      <h1>{name}</h1>
      {photos.length + videos.length + vods.length === 0 ? (
        NO_DETAILS
      ) : (
        <>
          <Section title="Photos" route="/photos/" items={photos} />
          <Section title="Videos" route="/video/" items={videos} />
          <Section title="VODs" route="/vod/" items={vods} />
        </>
      )}
    </section>
  );
}
