import { Link, useLocation, useParams } from 'react-router-dom';
import { Loading } from '../../../components/StatusMessage';
import { LockedNotice } from '../../access/LockedNotice';
import { mayViewMembersArea, useAccess } from '../../access/useAccess';
import { PhotoViewer } from './PhotoViewer';

// nginx hands /members/* to the media service, so this route is reached only by navigating inside the
// app (a full load of a refused file is sent back to the item's page with a 303 by the media
// service). Members' photos open in the viewer; a visitor or a non-member sees the lock instead of a
// broken image. Free photos are public.
export function MemberMediaPage() {
  const { pathname } = useLocation();
  const { folder = '', file = '' } = useParams();
  const access = useAccess();
  const family = pathname.split('/')[2];
  const isFree = family === 'freephotos';

  if (!isFree && access.status === 'unknown') return <Loading />;
  if (!isFree && !mayViewMembersArea(access)) {
    const page = family === 'video' ? `/video/${encodeURIComponent(folder)}` : `/photos/${encodeURIComponent(folder)}`;
    const what = family === 'video' ? 'This video' : 'This photo';
    return (
      <section>
        <h1>{what} is for members</h1>
        <LockedNotice access={access} what={what} joinLabel={family === 'video' ? 'Join to watch' : 'Join to see the full set'} />
        <p>
          <Link to={page}>{family === 'video' ? 'Back to the video' : 'Back to the set'}</Link>
        </p>
      </section>
    );
  }
  if (family === 'photos') return <PhotoViewer folder={folder} file={file} />;

  const name = decodeURIComponent(pathname.slice(pathname.lastIndexOf('/') + 1));
  return (
    <section>
      <h1 className="visually-hidden">{name}</h1>
      <figure className="single-image">
        <img src={pathname} alt={name} decoding="async" />
        <figcaption>
          <a href={pathname}>Open the file directly</a>
        </figcaption>
      </figure>
    </section>
  );
}
