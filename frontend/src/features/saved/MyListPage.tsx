import { Link, Navigate } from 'react-router-dom';
import { ErrorMessage, Loading } from '../../components/StatusMessage';
import { OutageNotice } from '../../components/OutageNotice';
import { usePageTitle } from '../../hooks/usePageTitle';
import { useAccess } from '../access/useAccess';
import { signInHref } from '../access/LockedNotice';
import { SavedCard } from './SavedCard';
import { useSaved } from './store';

/**
 * /my-list: what the member saved, newest first, across photo sets, videos, VODs and models. A
 * visitor is sent to sign in and comes back here. Items taken down or not released yet are not
 * listed (the bff leaves them out).
 */
export function MyListPage() {
  usePageTitle('My list');
  const access = useAccess();
  const saved = useSaved();
  if (access.status === 'unknown' && access.unreachable)
    return (
      <section>
        <h1>My list</h1>
        <OutageNotice />
      </section>
    );
  if (access.status === 'visitor') return <Navigate to={signInHref('/my-list')} replace />;
  if (access.status === 'unknown' || saved.status === 'idle' || saved.status === 'loading') return <Loading />;
  return (
    <section>
      <h1>My list</h1>
      {saved.status === 'failed' ? (
        <ErrorMessage error={saved.error} onRetry={saved.retry} />
      ) : saved.items.length === 0 ? (
        <p className="empty-list">
          Nothing saved yet. Press <strong>♡ Save</strong> on a photo set, a video, a VOD or a model to keep it here. Start with the{' '}
          <Link to="/videos?sort=date">newest videos</Link>.
        </p>
      ) : (
        <>
          <p className="muted">{saved.items.length === 1 ? '1 item' : `${saved.items.length} items`}, newest first.</p>
          <ul className="grid grid-gallery">
            {saved.items.map((item) => (
              <SavedCard key={`${item.type}/${item.key}`} item={item} />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
