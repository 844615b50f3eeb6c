import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { knownFacts, photoCountFact } from '../../../components/cardFacts';
import { MediaCard } from '../../../components/MediaCard';
import { getFreeSets, type FreeSetItem } from '../api/getFreeSets';
import { FREE_SETS_ID } from '../freeSets';

// The list last shown in this tab. Back to home restores its loaded columns and scroll position at
// once (useInfinitePages, useScrollRestoration): a strip that arrived a moment later, above them, would
// push the visitor's place down by its height. So it is drawn at once from here, then asked for again.
let remembered: FreeSetItem[] = [];

/** How long the strip is kept at the top while the page above and around it loads. */
const PIN_MS = 4000;
/** What the visitor does to scroll on their own, which ends the pin at once. */
const USER_SCROLLS = ['wheel', 'touchstart', 'keydown', 'mousedown'] as const;

/** For tests: a fresh tab. */
export function forgetFreeSets(): void {
  remembered = [];
}

function useFreeSets(): FreeSetItem[] {
  const [sets, setSets] = useState(remembered);
  useEffect(() => {
    const controller = new AbortController();
    getFreeSets(controller.signal).then(
      (list) => {
        if (controller.signal.aborted) return;
        remembered = list;
        setSets(list);
      },
      () => {
        // Not to be had now: the strip stays as it was (home's own columns matter more).
      },
    );
    return () => controller.abort();
  }, []);
  return sets;
}

/**
 * The free photo sets, which no link used to lead to (/free stays the spec's Coming Soon).
 * A strip above the latest updates: below them it could never be reached, the columns scroll on
 * forever. Nothing is shown while the first list loads or when none can be had: home's own columns matter more.
 */
export function FreeSets() {
  const sets = useFreeSets();
  const section = useRef<HTMLElement>(null);
  const { hash, key } = useLocation();
  const shown = sets.length > 0;

  // Arriving from the footer link (/#free-sets): scroll here once the cards are in. A passive effect,
  // so it runs after the layout's scroll to the top of a new page; on the key too, so the link followed
  // again from further down home (same hash, a new history entry) comes back here.
  // Home's columns may arrive after the strip: until then the page can be too short to bring the strip
  // to the top, and when they come in the strip is left part-way down. So, as a browser does for an
  // anchor while a page loads, it is brought back each time the page grows, for a few seconds and only
  // until the visitor scrolls, touches or types.
  useEffect(() => {
    if (!shown || hash !== `#${FREE_SETS_ID}`) return;
    const bring = () => section.current?.scrollIntoView({ block: 'start' });
    bring();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(bring);
    observer.observe(document.body);
    const stop = () => {
      observer.disconnect();
      window.clearTimeout(timer);
      for (const type of USER_SCROLLS) window.removeEventListener(type, stop);
    };
    const timer = window.setTimeout(stop, PIN_MS);
    for (const type of USER_SCROLLS) window.addEventListener(type, stop, { passive: true });
    return stop;
  }, [shown, hash, key]);

  if (!shown) return null;
  return (
    <section className="home-free-sets" id={FREE_SETS_ID} ref={section} aria-labelledby={`${FREE_SETS_ID}-title`}>
      <h2 id={`${FREE_SETS_ID}-title`}>Free photo sets</h2>
      <p className="muted">Free to view, no membership needed.</p>
      <ul className="grid grid-thumbs">
        {sets.map((set) => (
          <MediaCard
            key={set.path}
            to={`/freephotos/${encodeURIComponent(set.path)}`}
            title={set.updatename}
            thumbnail={set.thumbnail}
            facts={knownFacts(photoCountFact(set.photocount))}
          />
        ))}
      </ul>
    </section>
  );
}
