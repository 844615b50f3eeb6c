import { useParams } from 'react-router-dom';
import { LazyImage } from '../../../components/LazyImage';
import { MixedListedCard } from '../../../components/MediaCard';
import { DetailError, Loading } from '../../../components/StatusMessage';
import { usePageTitle } from '../../../hooks/usePageTitle';
import { useResource } from '../../../hooks/useResource';
import type { ModelDetail } from '../../api/types';
import { getModelDetail } from '../api/getModelDetail';
import { SaveButton } from '../../saved/SaveButton';
import { ReportLink } from '../../../components/ReportLink';

const NO_DETAILS = <p className="status">No Model Details Available</p>;

type Item = ModelDetail['photos'][number] | ModelDetail['videos'][number] | ModelDetail['vods'][number];

function Section({ title, section, items }: { title: string; section: 'photos' | 'video' | 'vod'; items: Item[] }) {
  if (!items.length) return null;
  const id = `model-${section}`;
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <ul className="grid grid-gallery">
        {items.map((item) => (
          <MixedListedCard key={item.path} item={item} section={section}>
            <span>Uploaded: {item.datetoupload}</span>
          </MixedListedCard>
        ))}
      </ul>
    </section>
  );
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The model's portrait: the cover stored for the model (ingest and the seed keep the first set's),
 * else the oldest set's cover, else the oldest video's or VOD's frame.
 */
function portraitOf(detail: ModelDetail): string | null {
  return detail.thumbnail ?? detail.photos.at(-1)?.thumbnail ?? detail.videos.at(-1)?.thumbnail ?? detail.vods.at(-1)?.thumbnail ?? null;
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
  const detail = resource.data;
  const { photos, videos, vods } = detail;
  const portrait = portraitOf(detail);
  return (
    <section>
      <header className="model-header">
        {portrait ? (
          <LazyImage src={portrait} alt="" className="model-portrait" width={480} height={360} sizes="(min-width: 768px) 240px, 40vw" />
        ) : null}
        <div>
          <h1>{name}</h1>
          <SaveButton type="model" itemKey={name} title={name} />
          <ul className="model-counts" aria-label="What there is">
            <li>{count(photos.length, 'photo set', 'photo sets')}</li>
            <li>{count(videos.length, 'video', 'videos')}</li>
            <li>{count(vods.length, 'VOD', 'VODs')}</li>
          </ul>
        </div>
      </header>
      {photos.length + videos.length + vods.length === 0 ? (
        NO_DETAILS
      ) : (
        <>
          <Section title="Photos" section="photos" items={photos} />
          <Section title="Videos" section="video" items={videos} />
          <Section title="VODs" section="vod" items={vods} />
        </>
      )}
      <ReportLink path={`/models/${encodeURIComponent(name)}`} />
    </section>
  );
}
