import { useState } from 'react';
import { TagList } from '../../../components/TagList';
import { useParams } from 'react-router-dom';
import { FrameStrip } from '../../../components/FrameStrip';
import { ResourceView } from '../../../components/StatusMessage';
import { usePageTitle } from '../../../hooks/usePageTitle';
import { useResource } from '../../../hooks/useResource';
import { mayViewMembersArea, useAccess, type Access } from '../../access/useAccess';
import { ItemMeta } from '../../photos/components/ItemMeta';
import { DownloadButton } from '../../auth/components/DownloadButton';
import { getVideoPrename } from '../api/getVideoPrename';
import { PlayerSection } from '../../player/PlayerSection';
import { ItemTitle } from '../../saved/SaveButton';
import { ReportLink } from '../../../components/ReportLink';

export function VideoDetailPage() {
  const folder = useParams().folder ?? '';
  const resource = useResource(`video:${folder}`, (signal) => getVideoPrename(folder, signal));
  usePageTitle(resource.status === 'success' ? resource.data.updatename : null);
  const access = useAccess();
  // Taken down while it played: the player says so; the frames and the Download button go with it.
  const [goneFolder, setGoneFolder] = useState<string | null>(null);
  const gone = goneFolder === folder;

  return (
    <section>
      <ResourceView resource={resource} back={{ to: '/videos', label: 'Back to the videos' }}>
        {(video) => (
          <>
            <ItemTitle title={video.updatename} save={{ type: 'video', key: folder }} />
            <ItemMeta modelname={video.modelname} datetoupload={video.datetoupload} />
            <TagList tags={video.tags} />
            <PlayerSection type="video" folder={folder} onGone={() => setGoneFolder(folder)} />
            {gone ? null : (
              <>
                <FrameStrip base="videothumbs" folder={folder} title={video.updatename} />
                <VideoAccess access={access} download={video.download} />
              </>
            )}
            <ReportLink path={`/video/${folder}`} />
          </>
        )}
      </ResourceView>
    </section>
  );
}

/** Members download through a signed link (resumable, 48 h); everyone else sees the player section's trailer and lock. */
function VideoAccess({ access, download }: { access: Access; download: string }) {
  if (access.status === 'unknown' || !mayViewMembersArea(access)) return null;
  return (
    <p className="button-row">
      <DownloadButton path={download} label="Download" />
    </p>
  );
}
