import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import { MediaCard } from '../../../components/MediaCard';
import { useResource } from '../../../hooks/useResource';
import { getFreeSets } from '../api/getFreeSets';
import { FREE_SETS_ID } from '../freeSets';

/**
 * The free photo sets, which no link used to lead to (issue 23; /free stays the spec's Coming Soon).
 * A strip above the latest updates: below them it could never be reached, the columns scroll on
 * forever. Nothing is shown while loading or when the list can't be had: home's own columns matter more.
 */
export function FreeSets() {
  const sets = useResource('free-sets', getFreeSets);
  const section = useRef<HTMLElement>(null);
  const { hash, key } = useLocation();
  const shown = sets.status === 'success' && sets.data.length > 0;

  // Arriving from the footer link (/#free-sets): scroll here once the cards are in. A passive effect,
  // so it runs after the layout's scroll to the top of a new page; on the key too, so the link followed
  // again from further down home (same hash, a new history entry) comes back here.
  useEffect(() => {
    if (shown && hash === `#${FREE_SETS_ID}`) section.current?.scrollIntoView({ block: 'start' });
  }, [shown, hash, key]);

  if (sets.status !== 'success' || !shown) return null;
  return (
    <section className="home-free-sets" id={FREE_SETS_ID} ref={section} aria-labelledby={`${FREE_SETS_ID}-title`}>
      <h2 id={`${FREE_SETS_ID}-title`}>Free photo sets</h2>
      <p className="muted">Free to view, no membership needed.</p>
      <ul className="grid grid-thumbs">
        {sets.data.map((set) => (
          <MediaCard key={set.path} to={`/freephotos/${encodeURIComponent(set.path)}`} title={set.updatename} thumbnail={set.thumbnail} />
        ))}
      </ul>
    </section>
  );
}
