import { durationFact, knownFacts } from '../../../components/cardFacts';
import { ListedCard } from '../../../components/MediaCard';
import { Sentinel } from '../../../components/Sentinel';
import { ErrorMessage, Loading } from '../../../components/StatusMessage';
import { formatPrice } from '../../../config/money';
import { useInfinitePages } from '../../../hooks/useInfinitePages';
import { usePageTitle } from '../../../hooks/usePageTitle';
import { getVods, VOD_PAGE_SIZE } from '../api/getVods';

// Returning to /vod (Back or the nav link, spec §2) restores the loaded pages and the scroll position:
// useInfinitePages and the layout's useScrollRestoration keep both, as for every listing (hooks/historyMemory.ts).
export function VodGalleryPage() {
  const list = useInfinitePages(getVods, VOD_PAGE_SIZE);
  usePageTitle('VOD');

  return (
    <section>
      <h1>VOD</h1>
      {list.items.length > 0 && (
        <ul className="grid grid-vod">
          {list.items.map((vod) => (
            <ListedCard
              key={vod.vod_id}
              item={vod}
              section="vod"
              storedThumbnail={(dir) => `/members/vodthumbs/${dir}/${dir}_02.jpg`}
              facts={knownFacts(formatPrice(vod.price), durationFact(vod.duration))}
            >
              <span>Uploaded: {vod.datetoupload}</span>
            </ListedCard>
          ))}
        </ul>
      )}
      {list.loading && <Loading />}
      {list.error && <ErrorMessage error={list.error} onRetry={list.retry} />}
      {!list.loading && list.done && list.items.length === 0 && <p>No VODs yet.</p>}
      {!list.done && !list.error && <Sentinel margin="20px" onVisible={list.loadMore} generation={list.items.length} />}
    </section>
  );
}
