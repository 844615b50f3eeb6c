import { knownFacts, photoCountFact } from '../../../components/cardFacts';
import { ListedCard } from '../../../components/MediaCard';
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
        <ListedCard
          key={photo.photos_id}
          item={photo}
          section="photos"
          storedThumbnail={(dir) => `/members/photosthumbs/${dir}/large.jpg`}
          facts={knownFacts(photoCountFact(photo.photocount))}
        >
          <span>{photo.modelname}</span>
          <span>Uploaded: {photo.datetoupload}</span>
        </ListedCard>
      )}
    />
  );
}
