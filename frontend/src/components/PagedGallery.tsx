import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { usePageTitle } from '../hooks/usePageTitle';
import { useResource } from '../hooks/useResource';
import { ResourceView } from './StatusMessage';

export type GallerySort = 'alpha' | 'date';
export const GALLERY_PAGE_SIZE = 10;

interface PagedGalleryProps<T> {
  title: string;
  sortLabels: Record<GallerySort, string>;
  url: (page: number, sort: GallerySort) => string;
  load: (url: string, signal: AbortSignal) => Promise<T[]>;
  renderItem: (item: T) => ReactNode;
}

function readPage(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

/** What the list is sorted by now (the sort button names the other order). */
export const SORTED_BY: Record<GallerySort, string> = { alpha: 'Sorted A–Z', date: 'Sorted by date, newest first' };

// /photos and /videos: the page and sort live in the URL, so back/forward and shared links keep them.
export function PagedGallery<T>({ title, sortLabels, url, load, renderItem }: PagedGalleryProps<T>) {
  usePageTitle(title);
  const [params, setParams] = useSearchParams();
  const page = readPage(params.get('page'));
  const sort: GallerySort = params.get('sort') === 'date' ? 'date' : 'alpha';
  const key = url(page, sort);
  const resource = useResource(key, (signal) => load(key, signal));
  const fullPage = resource.status === 'success' && resource.data.length >= GALLERY_PAGE_SIZE;

  const go = (nextPage: number, nextSort: GallerySort) => setParams({ page: String(nextPage), sort: nextSort });

  return (
    <section>
      <h1>{title}</h1>
      <div className="toolbar">
        {/* The button's label (the spec's wording) names the order it switches to; the line beside it says the order shown. */}
        <span className="muted" data-testid="sorted-by">
          {SORTED_BY[sort]}
        </span>
        <button type="button" className="button" onClick={() => go(1, sort === 'alpha' ? 'date' : 'alpha')}>
          {sort === 'alpha' ? sortLabels.date : sortLabels.alpha}
        </button>
      </div>
      <ResourceView resource={resource}>
        {(items) => (items.length ? <ul className="grid grid-gallery">{items.map(renderItem)}</ul> : <p>Nothing here yet.</p>)}
      </ResourceView>
      <nav className="pager" aria-label={`${title} pages`}>
        <button type="button" className="button" disabled={page <= 1} onClick={() => go(page - 1, sort)}>
          Previous
        </button>
        <span aria-live="polite">Page {page}</span>
        <button type="button" className="button" disabled={!fullPage} onClick={() => go(page + 1, sort)}>
          Next
        </button>
      </nav>
    </section>
  );
}
