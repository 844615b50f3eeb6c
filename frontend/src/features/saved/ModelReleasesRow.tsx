import { useEffect, useState } from 'react';
import { MediaCard } from '../../components/MediaCard';
import { getSavedReleases, savedHref, type SavedRelease } from './api';
import { useSaved } from './store';

/**
 * "New from your models" on home: the newest photo sets, videos and VODs of the models in My list
 * (saving a model follows her). Read again when the saved models change; nothing without one.
 */
export function ModelReleasesRow() {
  const saved = useSaved();
  const models = saved.status === 'ready' ? saved.items.filter((i) => i.type === 'model').map((i) => i.key) : [];
  const following = models.sort().join('\n');
  const [items, setItems] = useState<SavedRelease[]>([]);

  useEffect(() => {
    if (following === '') {
      setItems([]);
      return undefined;
    }
    const controller = new AbortController();
    getSavedReleases(controller.signal).then(setItems, () => {
      // A convenience row: home is whole without it.
    });
    return () => controller.abort();
  }, [following]);

  if (following === '' || items.length === 0) return null;
  return (
    <section className="continue-watching" aria-labelledby="model-releases">
      <h2 id="model-releases">New from your models</h2>
      <ul className="continue-row">
        {items.map((item) => (
          <MediaCard
            key={`${item.type}/${item.key}`}
            to={savedHref(item)}
            title={item.title}
            thumbnail={item.thumbnail}
            save={{ type: item.type, key: item.key }}
          >
            <span>{item.modelname}</span>
            <span>{item.date}</span>
          </MediaCard>
        ))}
      </ul>
    </section>
  );
}
