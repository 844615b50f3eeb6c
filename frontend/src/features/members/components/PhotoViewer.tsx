import { useEffect, useLayoutEffect, useRef, useState, type TouchEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { ResourceView, UnavailableCard } from '../../../components/StatusMessage';
import { usePageTitle } from '../../../hooks/usePageTitle';
import { useResource } from '../../../hooks/useResource';
import { getPhotoSet, photoPath } from '../../photos/api/getPhotoSet';
import { getFreeThumbnails } from '../../freephotos/api/getFreeThumbnails';

// A horizontal swipe of at least this many CSS pixels (and more sideways than down) turns the page.
const SWIPE_PX = 50;

/**
 * A member's full photo: fits the screen, previous/next by button, arrow key or swipe, "3 / 24",
 * back to the set (also Escape); the next photo is fetched ahead so it shows at once. Moving
 * between photos replaces the history entry, so Back returns to the set, not through every photo seen.
 */
export function PhotoViewer({ folder, file }: { folder: string; file: string }) {
  const resource = useResource(`photoset:${folder}`, (signal) => getPhotoSet(folder, signal));
  return (
    <ResourceView resource={resource} back={{ to: '/photos', label: 'Back to the photo sets' }}>
      {(set) => (
        <Viewer
          set={{ title: set.updatename, files: set.files, page: `/photos/${encodeURIComponent(folder)}` }}
          pathOf={(name) => photoPath(folder, name)}
          file={file}
        />
      )}
    </ResourceView>
  );
}

/** A free set's photo in the same viewer (its address is also the public file). */
export function FreePhotoViewer({ folder, file }: { folder: string; file: string }) {
  const resource = useResource(`freethumbnails:${folder}`, (signal) => getFreeThumbnails(folder, signal));
  const dir = encodeURIComponent(folder);
  return (
    <ResourceView resource={resource} back={{ to: '/', label: 'Back to home' }}>
      {(files) => (
        <Viewer
          set={{ title: 'Free photos', files, page: `/freephotos/${dir}` }}
          pathOf={(name) => `/members/freephotos/${dir}/${encodeURIComponent(name)}`}
          file={file}
        />
      )}
    </ResourceView>
  );
}

interface ViewedSet {
  title: string;
  files: string[];
  /** The set's own page: "Back to the set", Escape. */
  page: string;
}

function Viewer({ set, pathOf, file }: { set: ViewedSet; pathOf: (file: string) => string; file: string }) {
  const navigate = useNavigate();
  const index = set.files.indexOf(file);
  const count = set.files.length;
  const prev = index > 0 ? set.files[index - 1] : undefined;
  const next = index >= 0 && index < count - 1 ? set.files[index + 1] : undefined;
  const setPage = set.page;
  usePageTitle(index >= 0 ? `${set.title}, photo ${index + 1} of ${count}` : set.title);
  const [failed, setFailed] = useState<string | null>(null);
  const touch = useRef<{ x: number; y: number } | null>(null);
  const goRef = useRef<(delta: number) => void>(() => {});

  // The photo last asked for (navigate() applies in a transition, possibly after the next key press),
  // and the current navigate(). Both are kept in layout effects, and the key listener is attached in
  // one: a passive effect runs some time after the new photo is on screen, and a key pressed in
  // between was handled by the previous render's state, or not at all on a busy machine (seen in CI).
  const wanted = useRef(index);
  const navigateTo = useRef(navigate);
  // A new function each render of the same set: read through a ref by the key listener.
  const pathRef = useRef(pathOf);
  useLayoutEffect(() => {
    pathRef.current = pathOf;
  });
  useLayoutEffect(() => {
    wanted.current = index;
  }, [index]);
  useLayoutEffect(() => {
    navigateTo.current = navigate;
  }, [navigate]);

  useLayoutEffect(() => {
    const go = (delta: number) => {
      const shown = wanted.current;
      const to = shown + delta;
      if (shown < 0 || to < 0 || to >= set.files.length) return;
      wanted.current = to;
      navigateTo.current(pathRef.current(set.files[to]!), { replace: true });
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      const target = event.target as HTMLElement | null;
      if (target && /^(?:INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
      if (event.key === 'Escape') {
        event.preventDefault();
        navigateTo.current(setPage);
        return;
      }
      const delta = event.key === 'ArrowLeft' ? -1 : event.key === 'ArrowRight' ? 1 : 0;
      if (delta === 0) return;
      event.preventDefault();
      go(delta);
    };
    window.addEventListener('keydown', onKey);
    goRef.current = go;
    return () => window.removeEventListener('keydown', onKey);
  }, [set.files, setPage]);

  const nextSrc = next === undefined ? undefined : pathOf(next);
  useEffect(() => {
    if (nextSrc === undefined) return;
    const preload = new Image();
    preload.decoding = 'async';
    preload.src = nextSrc;
  }, [nextSrc]);

  if (index < 0) return <UnavailableCard back={{ to: setPage, label: 'Back to the set' }} detail={`This set has no photo ${file}.`} />;

  const src = pathOf(file);
  const onTouchStart = (event: TouchEvent) => {
    const t = event.touches[0];
    touch.current = t ? { x: t.clientX, y: t.clientY } : null;
  };
  const onTouchEnd = (event: TouchEvent) => {
    const start = touch.current;
    const t = event.changedTouches[0];
    touch.current = null;
    if (!start || !t) return;
    const dx = t.clientX - start.x;
    if (Math.abs(dx) < SWIPE_PX || Math.abs(dx) < Math.abs(t.clientY - start.y)) return;
    goRef.current(dx < 0 ? 1 : -1);
  };

  return (
    <section className="photo-viewer" aria-roledescription="photo viewer">
      <div className="photo-viewer-bar">
        <Link to={setPage} className="button">
          ← Back to the set
        </Link>
        <h1 className="photo-viewer-title">{set.title}</h1>
        <p className="photo-viewer-counter" aria-live="polite">
          <span className="visually-hidden">Photo </span>
          {index + 1} / {count}
        </p>
      </div>
      <figure className="photo-viewer-stage" onTouchStart={onTouchStart} onTouchEnd={onTouchEnd}>
        {failed === src ? (
          <p className="status status-error" role="alert">
            This photo could not be loaded.{' '}
            <button type="button" className="button" onClick={() => setFailed(null)}>
              Retry
            </button>
          </p>
        ) : (
          <img key={src} src={src} alt={`Photo ${index + 1} of ${count}, ${set.title}`} decoding="async" onError={() => setFailed(src)} />
        )}
      </figure>
      <nav className="photo-viewer-nav" aria-label="Photos">
        {prev === undefined ? (
          <span className="button" aria-disabled="true">
            ← Previous
          </span>
        ) : (
          <Link className="button" to={pathOf(prev)} replace rel="prev">
            ← Previous
          </Link>
        )}
        {next === undefined ? (
          <span className="button" aria-disabled="true">
            Next →
          </span>
        ) : (
          <Link className="button" to={pathOf(next)} replace rel="next">
            Next →
          </Link>
        )}
      </nav>
    </section>
  );
}
