import { Link } from 'react-router-dom';
import { MixedListedCard } from '../../../components/MediaCard';
import { Sentinel } from '../../../components/Sentinel';
import { ErrorMessage, Loading } from '../../../components/StatusMessage';
import { useInfinitePages } from '../../../hooks/useInfinitePages';
import { usePageTitle } from '../../../hooks/usePageTitle';
import type { ContentType, UpdateItem } from '../../api/types';
import { getUpdates, UPDATES_PAGE_SIZE } from '../api/getUpdates';
import { ComingSoon } from './ComingSoon';
import { FreeSets } from './FreeSets';
import { HomeHero } from './HomeHero';

type Section = 'photos' | 'video' | 'vod';

const COLUMNS: { type: ContentType; title: string; section: Section }[] = [
  { type: 'photo', title: 'Latest Photos', section: 'photos' },
  { type: 'video', title: 'Latest Videos', section: 'video' },
  { type: 'vod', title: 'Latest VODs', section: 'vod' },
];

function Column({ title, section, items }: { title: string; section: Section; items: UpdateItem[] }) {
  const id = `column-${section}`;
  return (
    <section className="home-column" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <ul className="grid grid-column">
        {items.map((item) => (
          <MixedListedCard key={item.path} item={item} section={section}>
            <span>{item.modelname}</span>
            <span>{item.datetoupload}</span>
          </MixedListedCard>
        ))}
      </ul>
    </section>
  );
}

export function HomePage() {
  const feed = useInfinitePages(getUpdates, UPDATES_PAGE_SIZE);
  usePageTitle('Home');

  return (
    <>
      {/* The spec's top link, kept first: a small legal line above the hero. */}
      <p className="top-link">
        <Link to="/2257">18 U.S.C. 2257 Record-Keeping Requirements Compliance Statement</Link>
      </p>
      <h1 className="visually-hidden">Latest updates</h1>
      <HomeHero />
      <ComingSoon />
      <FreeSets />
      <div className="home-columns">
        {COLUMNS.map((column) => (
          <Column
            key={column.type}
            title={column.title}
            section={column.section}
            items={feed.items.filter((item) => item.type === column.type)}
          />
        ))}
      </div>
      {feed.loading && <Loading />}
      {feed.error && <ErrorMessage error={feed.error} onRetry={feed.retry} />}
      {!feed.done && !feed.error && <Sentinel onVisible={feed.loadMore} generation={feed.items.length} />}
    </>
  );
}
