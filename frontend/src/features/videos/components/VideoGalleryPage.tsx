import { durationFact, knownFacts } from '../../../components/cardFacts';
import { ListedCard } from '../../../components/MediaCard';
import { PagedGallery } from '../../../components/PagedGallery';
import type { VideoItem } from '../../api/types';
import { getVideos, videosUrl } from '../api/getVideos';

const SORT_LABELS = { date: 'Sort by Date', alpha: 'Sort Alphabetically' };

export function VideoGalleryPage() {
  return (
    <PagedGallery<VideoItem>
      title="Videos"
      sortLabels={SORT_LABELS}
      url={videosUrl}
      load={getVideos}
      renderItem={(video) => (
        <ListedCard
          key={video.video_id}
          item={video}
          section="video"
          storedThumbnail={(dir) => `/members/videothumbs/${dir}/${dir}_02.jpg`}
          facts={knownFacts(durationFact(video.duration))}
        >
          <span>{video.modelname}</span>
          <span>Uploaded: {video.datetoupload}</span>
        </ListedCard>
      )}
    />
  );
}
