import { useEffect, useState } from 'react';
import { MediaCard } from '../../components/MediaCard';
import { useAccess } from '../access/useAccess';
import { getContinueWatching, type ContinueItem } from './api/playback';
import { formatTime } from '../../config/time';

/**
 * "Continue watching" on the home page: the signed-in member's unfinished videos and VODs (stored
 * server-side, so they follow the member to another browser), most recent first. Nothing at all
 * for visitors or when the list is empty.
 */
export function ContinueWatching() {
  const access = useAccess();
  const signedIn = access.status === 'signedIn';
  const [items, setItems] = useState<ContinueItem[]>([]);

  useEffect(() => {
    if (!signedIn) return undefined;
    const controller = new AbortController();
    getContinueWatching(controller.signal).then(setItems, () => {
      // The row is a convenience: without it the home page is still whole.
    });
    return () => controller.abort();
  }, [signedIn]);

  if (!signedIn || !items.length) return null;
  return (
    <section className="continue-watching" aria-labelledby="continue-watching">
      <h2 id="continue-watching">Continue watching</h2>
      <ul className="continue-row">
        {items.map((item) => (
          <MediaCard
            key={`${item.type}/${item.path}`}
            to={`/${item.type}/${encodeURIComponent(item.path)}`}
            title={item.updatename}
            thumbnail={item.thumbnail}
          >
            <span>{item.modelname}</span>
            <span>{item.duration ? `${formatTime(item.seconds)} of ${formatTime(item.duration)}` : `at ${formatTime(item.seconds)}`}</span>
            {item.duration ? (
              <progress
                className="continue-progress"
                max={item.duration}
                value={item.seconds}
                aria-label={`Watched ${Math.round((item.seconds / item.duration) * 100)} %`}
              />
            ) : null}
          </MediaCard>
        ))}
      </ul>
    </section>
  );
}
