import { useParams } from 'react-router-dom';
import { FrameStrip } from '../../../components/FrameStrip';
import { ResourceView } from '../../../components/StatusMessage';
import { useResource } from '../../../hooks/useResource';
import { getVideoPrename } from '../api/getVideoPrename';
import { PlayerSection } from '../../player/PlayerSection';

export function VideoDetailPage() {
  const folder = useParams().folder ?? '';
  const resource = useResource(`video:${folder}`, (signal) => getVideoPrename(folder, signal));

  return (
    <section>
      <ResourceView resource={resource}>
        {(video) => (
          <>
            <h1>{video.prename}</h1>
            <PlayerSection type="video" folder={folder} />
            <FrameStrip base="videothumbs" folder={folder} title={video.prename} />
            <p>
              {/* A plain link: the file comes from the media service, not from the app's router. */}
              <a className="button button-primary" href={video.download} download>
                Download
              </a>
            </p>
          </>
        )}
      </ResourceView>
    </section>
  );
}
