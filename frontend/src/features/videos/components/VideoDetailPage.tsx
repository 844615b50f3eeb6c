import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { FrameStrip } from '../../../components/FrameStrip';
import { ResourceView } from '../../../components/StatusMessage';
import { usePageTitle } from '../../../hooks/usePageTitle';
import { useResource } from '../../../hooks/useResource';
import { mayViewMembersArea, useAccess, type Access } from '../../access/useAccess';
import { ItemMeta } from '../../photos/components/ItemMeta';
import { getDownloadLink, getVideoPrename } from '../api/getVideoPrename';
import { PlayerSection } from '../../player/PlayerSection';

export function VideoDetailPage() {
  const folder = useParams().folder ?? '';
  const resource = useResource(`video:${folder}`, (signal) => getVideoPrename(folder, signal));
  usePageTitle(resource.status === 'success' ? resource.data.updatename : null);
  const access = useAccess();

  return (
    <section>
      <ResourceView resource={resource}>
        {(video) => (
          <>
            <h1>{video.updatename}</h1>
            <ItemMeta modelname={video.modelname} datetoupload={video.datetoupload} />
            <PlayerSection type="video" folder={folder} />
            <FrameStrip base="videothumbs" folder={folder} title={video.updatename} />
            <VideoAccess access={access} download={video.download} />
          </>
        )}
      </ResourceView>
    </section>
  );
}

/** Members download through a signed link (resumable, 48 h); everyone else sees the player section's trailer and lock. */
function VideoAccess({ access, download }: { access: Access; download: string }) {
  const [state, setState] = useState<'idle' | 'working' | 'failed'>('idle');
  if (access.status === 'unknown') return null;
  if (!mayViewMembersArea(access)) return null;

  const start = async () => {
    setState('working');
    try {
      const { url } = await getDownloadLink(download);
      setState('idle');
      window.location.assign(url);
    } catch {
      setState('failed');
    }
  };
  return (
    <p className="button-row">
      <button type="button" className="button button-primary" onClick={() => void start()} disabled={state === 'working'}>
        Download
      </button>
      {state === 'failed' ? (
        <span className="status status-error" role="alert">
          The download link could not be made. Try again.
        </span>
      ) : null}
    </p>
  );
}
