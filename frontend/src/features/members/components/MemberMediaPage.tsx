import { Link, useLocation, useParams } from 'react-router-dom';
import { OutageNotice } from '../../../components/OutageNotice';
import { Loading } from '../../../components/StatusMessage';
import { LockedNotice } from '../../access/LockedNotice';
import { mayViewMembersArea, useAccess, type Access } from '../../access/useAccess';
import { useResource } from '../../../hooks/useResource';
import { getPhotoSet } from '../../photos/api/getPhotoSet';
import { FreePhotoViewer, PhotoViewer } from './PhotoViewer';
import { UnavailableCard } from '../../../components/StatusMessage';

// A photo's address is both its viewer page and its file (spec §2): inside the app this route draws
// the viewer, and nginx serves the SPA for a browser's page navigation to a photo (a reload, a shared
// link) and the file for everything else. Members' photos open in the viewer; a visitor or a
// non-member sees the lock instead of a broken image. Free photos are public, in the same viewer.
// Video files have no page of their own: a full load of a refused one is sent back to the video's
// page with a 303 by the media service; inside the app this route shows the lock.
export function MemberMediaPage() {
  const { pathname } = useLocation();
  const { folder = '', file = '' } = useParams();
  const access = useAccess();
  const family = pathname.split('/')[2];
  const isFree = family === 'freephotos';

  if (!isFree && access.status === 'unknown') return access.unreachable ? <OutageNotice /> : <Loading />;
  if (!isFree && !mayViewMembersArea(access)) {
    return family === 'photos' ? (
      <LockedPhoto access={access} folder={folder} file={file} />
    ) : (
      <LockedVideo access={access} folder={folder} />
    );
  }
  if (family === 'photos') return <PhotoViewer folder={folder} file={file} />;
  if (isFree) return <FreePhotoViewer folder={folder} file={file} />;

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

/** A visitor's (or non-member's) click on a set thumbnail: the public thumbnail, what it is, and the way in. */
function LockedPhoto({ access, folder, file }: { access: Access; folder: string; file: string }) {
  const set = useResource(`photoset:${folder}`, (signal) => getPhotoSet(folder, signal));
  const info = set.status === 'success' ? set.data : undefined;
  const position = info ? info.files.indexOf(file) + 1 : 0;
  const setPage = `/photos/${encodeURIComponent(folder)}`;
  // A name the set does not have: not found, as the member's viewer says (and noindex).
  if (info && position === 0)
    return <UnavailableCard back={{ to: setPage, label: 'Back to the set' }} detail={`This set has no photo ${file}.`} />;
  return (
    <section>
      <h1>{info ? info.updatename : 'Members’ photo'}</h1>
      {info && position > 0 ? (
        <p className="item-meta">
          Photo {position} of {info.count} · {info.modelname}
        </p>
      ) : null}
      <LockedNotice access={access} what="The full-size photo" />
      {/* Once the set says it has this photo: no request for a name it does not have. */}
      {position > 0 && (
        <figure className="locked-preview">
          <img
            src={`/members/photosthumbs/${encodeURIComponent(folder)}/${encodeURIComponent(file)}?w=320`}
            alt=""
            width={320}
            height={240}
            decoding="async"
          />
        </figure>
      )}
      <p>
        <Link to={setPage}>Back to the set</Link>
      </p>
    </section>
  );
}

function LockedVideo({ access, folder }: { access: Access; folder: string }) {
  return (
    <section>
      <h1>Members’ video</h1>
      <LockedNotice access={access} what="This video" joinLabel="Join to watch and download" />
      <p>
        <Link to={`/video/${encodeURIComponent(folder)}`}>Back to the video</Link>
      </p>
    </section>
  );
}
