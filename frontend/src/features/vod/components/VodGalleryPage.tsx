import { useEffect, useRef, useState } from 'react';
import { MediaCard } from '../../../components/MediaCard';
import { Sentinel } from '../../../components/Sentinel';
import { ErrorMessage, Loading } from '../../../components/StatusMessage';
import { useInfinitePages } from '../../../hooks/useInfinitePages';
import { getVods, VOD_PAGE_SIZE } from '../api/getVods';
import { readVodScroll, saveVodScroll } from '../scrollMemory';

export function VodGalleryPage() {
  const [saved] = useState(readVodScroll);
  const list = useInfinitePages(getVods, VOD_PAGE_SIZE, saved?.pages ?? 1);
  const restored = useRef(!saved);
  const position = useRef({ pages: 0, y: 0 });
  position.current.pages = list.pagesLoaded;

  useEffect(() => {
    if (restored.current || list.loading) return;
    restored.current = true;
    if (saved) window.scrollTo(0, saved.y);
  }, [list.loading, saved]);

  useEffect(() => {
    const memory = position.current;
    const track = () => {
      if (restored.current) memory.y = window.scrollY;
    };
    window.addEventListener('scroll', track, { passive: true });
    return () => {
      window.removeEventListener('scroll', track);
      if (restored.current && memory.pages > 0) saveVodScroll({ ...memory });
    };
  }, []);

  return (
    <section>
      <h1>VOD</h1>
      {list.items.length > 0 && (
        <ul className="grid grid-vod">
          {list.items.map((vod) => {
            const dir = encodeURIComponent(vod.path);
            return (
              <MediaCard
                key={vod.vod_id}
                to={`/vod/${dir}`}
                title={vod.updatename}
                thumbnail={vod.thumbnail ?? `/members/vodthumbs/${dir}/${dir}_02.jpg`}
              >
                <span>Uploaded: {vod.datetoupload}</span>
              </MediaCard>
            );
          })}
        </ul>
      )}
      {list.loading && <Loading />}
      {list.error && <ErrorMessage error={list.error} />}
      {!list.loading && list.done && list.items.length === 0 && <p>No VODs yet.</p>}
      {!list.done && !list.error && <Sentinel margin="20px" onVisible={list.loadMore} generation={list.items.length} />}
    </section>
  );
}
