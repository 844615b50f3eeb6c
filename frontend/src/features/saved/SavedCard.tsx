import { MediaCard } from '../../components/MediaCard';
import { savedHref, type SavedItem, type SavedType } from './api';

const KIND: Record<SavedType, string> = { photo: 'Photo set', video: 'Video', vod: 'VOD', model: 'Model' };

/** One saved item's card: its kind and model beside the title, its heart pressed (press to remove). */
export function SavedCard({ item }: { item: SavedItem }) {
  return (
    <MediaCard
      to={savedHref(item)}
      title={item.title}
      thumbnail={item.thumbnail}
      facts={[{ text: KIND[item.type] }]}
      save={{ type: item.type, key: item.key }}
    >
      {item.modelname && <span>{item.modelname}</span>}
    </MediaCard>
  );
}
