import { useEffect, useState } from 'react';
import { fetchJson } from '../../api/fetchJson';
import type { TeaserItem } from '../../api/types';
import { LazyImage } from '../../../components/LazyImage';

/** "1 Dec 2026, 18:00" in the visitor's own zone: when the item comes out. */
const releaseText = (ms: number) => new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

const isTeaser = (item: TeaserItem): boolean =>
  typeof item?.title === 'string' &&
  typeof item.thumbnail === 'string' &&
  typeof item.modelname === 'string' &&
  Number.isFinite(new Date(item.releaseAt).getTime());

/**
 * Teased items not out yet: a card with the cover, title, model and release time, and no
 * link (there is nothing to open before the release). Nothing at all when none is teased or the list
 * cannot be had: home's own columns matter more.
 */
export function ComingSoon() {
  const [items, setItems] = useState<TeaserItem[]>([]);
  useEffect(() => {
    const controller = new AbortController();
    fetchJson<TeaserItem[]>('/api/coming-soon', { signal: controller.signal }).then(
      // Only well-formed cards: an odd answer shows nothing rather than break home.
      (answer) => setItems(Array.isArray(answer) ? answer.filter(isTeaser) : []),
      () => undefined,
    );
    return () => controller.abort();
  }, []);
  if (items.length === 0) return null;
  return (
    <section className="home-free-sets" aria-labelledby="coming-soon-title">
      <h2 id="coming-soon-title">Coming soon</h2>
      <ul className="grid grid-thumbs">
        {items.map((item) => (
          <li key={item.thumbnail} className="card">
            <div className="card-picture">
              <LazyImage src={item.thumbnail} alt="" />
            </div>
            <span className="card-title">{item.title}</span>
            <span className="card-meta">
              <span>{item.modelname}</span>
              {/* Not a badge: a date and time in full wraps inside a phone's half-width card. */}
              <time dateTime={new Date(item.releaseAt).toISOString()}>Out {releaseText(item.releaseAt)}</time>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
