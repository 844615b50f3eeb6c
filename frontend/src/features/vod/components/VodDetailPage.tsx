import { useState } from 'react';
import { TagList } from '../../../components/TagList';
import { Link, useLocation, useParams } from 'react-router-dom';
import { FrameStrip } from '../../../components/FrameStrip';
import { formatPrice } from '../../../config/money';
import { DetailError, Loading } from '../../../components/StatusMessage';
import { usePageTitle } from '../../../hooks/usePageTitle';
import { useResource } from '../../../hooks/useResource';
import { signInHref } from '../../access/LockedNotice';
import { ownsVod, useAccess, type Access } from '../../access/useAccess';
import { DownloadButton } from '../../auth/components/DownloadButton';
import { getVodPrename } from '../api/getVodPrename';
import { PlayerSection } from '../../player/PlayerSection';
import { ItemTitle } from '../../saved/SaveButton';
import { ReportLink } from '../../../components/ReportLink';

/** Buy, owned or sign in: from /api/me's answer (useAccess), never from a failed download. */
function PurchaseRow({
  access,
  vod,
  bought,
}: {
  access: Access;
  vod: { path: string; price: number | string; download: string };
  bought: boolean;
}) {
  const location = useLocation();
  if (access.status === 'unknown') return null;
  const price = formatPrice(vod.price);
  if (ownsVod(access, vod.path)) {
    return (
      <div className="vod-access">
        {bought && (
          <p className="status status-ok" role="status">
            Thank you: this VOD is yours.
          </p>
        )}
        <p className="button-row">
          <span className="badge badge-owned">Owned</span>
          <DownloadButton path={vod.download} label="Owned – Download" />
        </p>
        <p className="muted">The download link works for 48 hours and can be resumed; open this page again for a new one.</p>
      </div>
    );
  }
  if (access.status === 'visitor') {
    return (
      <div className="vod-access">
        <p className="button-row">
          {/* Visitors go to /join (spec): a VOD is bought by a signed-in account. */}
          <Link className="button button-primary" to="/join">
            Buy for {price}
          </Link>
          <Link className="button" to={signInHref(location.pathname, location.search)}>
            Sign in
          </Link>
        </p>
        <p className="muted">Sign in first if you already have an account; buying needs one.</p>
      </div>
    );
  }
  return (
    <p className="button-row vod-access">
      <Link className="button button-primary" to={`/ccbill?vod=${encodeURIComponent(vod.path)}`}>
        Buy for {price}
      </Link>
    </p>
  );
}

export function VodDetailPage() {
  const folder = useParams().folder ?? '';
  const resource = useResource(`vod:${folder}`, (signal) => getVodPrename(folder, signal));
  usePageTitle(resource.status === 'success' ? resource.data.updatename : null);
  const access = useAccess();
  const bought = (useLocation().state as { bought?: boolean } | null)?.bought === true;
  // Taken down while it played: the player says so; the frames and the purchase row go with it.
  const [goneFolder, setGoneFolder] = useState<string | null>(null);

  if (resource.status === 'loading') return <Loading />;
  if (resource.status === 'error')
    return <DetailError error={resource.error} onRetry={resource.retry} back={{ to: '/vod', label: 'Back to the VODs' }} />;
  const vod = resource.data;
  return (
    <section>
      <ItemTitle title={vod.updatename} save={{ type: 'vod', key: vod.path }} />
      <p className="muted">
        {vod.modelname} · Uploaded: {vod.datetoupload}
      </p>
      <TagList tags={vod.tags} />
      <PlayerSection type="vod" folder={vod.path} onGone={() => setGoneFolder(vod.path)} />
      {goneFolder === vod.path ? null : (
        <>
          <FrameStrip base="vodthumbs" folder={vod.path} title={vod.updatename} />
          <PurchaseRow access={access} vod={vod} bought={bought} />
        </>
      )}
      <ReportLink path={`/vod/${vod.path}`} />
    </section>
  );
}
