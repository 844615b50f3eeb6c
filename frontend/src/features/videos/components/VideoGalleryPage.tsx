import { MediaCard } from '../../../components/MediaCard';
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
      renderItem={(video) => {
        const dir = encodeURIComponent(video.path);
        return (
          <MediaCard
            key={video.video_id}
            to={`/video/${dir}`}
            title={video.updatename}
            thumbnail={video.thumbnail ?? `/members/videothumbs/${dir}/${dir}_02.jpg`}
          >
            <span>{video.modelname}</span>
            <span>Uploaded: {video.datetoupload}</span>
          </MediaCard>
        );
      }}
    />
  );
}
