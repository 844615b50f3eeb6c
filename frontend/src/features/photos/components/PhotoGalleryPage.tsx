import { MediaCard } from '../../../components/MediaCard';
import { PagedGallery } from '../../../components/PagedGallery';
import type { PhotoItem } from '../../api/types';
import { getPhotos, photosUrl } from '../api/getPhotos';

const SORT_LABELS = { date: 'Sort by Date', alpha: 'Sort by Name' };

export function PhotoGalleryPage() {
  return (
    <PagedGallery<PhotoItem>
      title="Photos"
      sortLabels={SORT_LABELS}
      url={photosUrl}
      load={getPhotos}
      renderItem={(photo) => (
        <MediaCard
          key={photo.photos_id}
          to={`/photos/${encodeURIComponent(photo.path)}`}
          title={photo.updatename}
          thumbnail={photo.thumbnail ?? `/members/photosthumbs/${encodeURIComponent(photo.path)}/large.jpg`}
        >
          <span>{photo.modelname}</span>
          <span>Uploaded: {photo.datetoupload}</span>
        </MediaCard>
      )}
    />
  );
}
