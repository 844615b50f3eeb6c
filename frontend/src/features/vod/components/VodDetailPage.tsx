import { Link, useParams } from 'react-router-dom';
import { FrameStrip } from '../../../components/FrameStrip';
import { ErrorMessage, Loading } from '../../../components/StatusMessage';
import { useResource } from '../../../hooks/useResource';
import { useSession } from '../../../hooks/useSession';
import { HttpError } from '../../api/fetchJson';
import { getVodPrename } from '../api/getVodPrename';
import { PlayerSection } from '../../player/PlayerSection';

function formatPrice(price: number | string): string {
  const value = Number(price);
  return Number.isFinite(value) ? `$${value.toFixed(2)}` : String(price);
}

export function VodDetailPage() {
  const folder = useParams().folder ?? '';
  const resource = useResource(`vod:${folder}`, (signal) => getVodPrename(folder, signal));
  const session = useSession();

  if (resource.status === 'loading') return <Loading />;
  if (resource.status === 'error') {
    if (resource.error instanceof HttpError && resource.error.status === 404) return <p className="status">No VOD details found</p>;
    return <ErrorMessage error={resource.error} />;
  }
  const vod = resource.data;
  return (
    <section>
      <h1>{vod.updatename}</h1>
      <p className="muted">
        {vod.modelname} · Uploaded: {vod.datetoupload}
      </p>
      <PlayerSection type="vod" folder={vod.path} />
      <FrameStrip base="vodthumbs" folder={vod.path} title={vod.updatename} />
      <p className="button-row">
        <a className="button" href={vod.download} download>
          Download
        </a>
        {/* Visitors go to /join (spec); a signed-in member buys this VOD through the payment chain. */}
        <Link className="button button-primary" to={session.status === 'signedIn' ? `/ccbill?vod=${encodeURIComponent(vod.path)}` : '/join'}>
          Buy for {formatPrice(vod.price)}
        </Link>
      </p>
    </section>
  );
}
