import { Link, useParams } from 'react-router-dom';
import { TagList } from '../../../components/TagList';
import { LazyImage } from '../../../components/LazyImage';
import { ResourceView } from '../../../components/StatusMessage';
import { usePageTitle } from '../../../hooks/usePageTitle';
import { useResource } from '../../../hooks/useResource';
import { LockedNotice } from '../../access/LockedNotice';
import { mayViewMembersArea, useAccess } from '../../access/useAccess';
import { DownloadButton } from '../../auth/components/DownloadButton';
import { getPhotoSet, photoPath, setZipPath } from '../api/getPhotoSet';
import { ItemMeta } from './ItemMeta';
import { ItemTitle } from '../../saved/SaveButton';
import { ReportLink } from '../../../components/ReportLink';

export function PhotoSetPage() {
  const folder = useParams().folder ?? '';
  const resource = useResource(`photoset:${folder}`, (signal) => getPhotoSet(folder, signal));
  usePageTitle(resource.status === 'success' ? resource.data.updatename : null);
  const access = useAccess();
  const open = mayViewMembersArea(access);
  const dir = encodeURIComponent(folder);

  return (
    <section>
      <ResourceView resource={resource} back={{ to: '/photos', label: 'Back to the photo sets' }}>
        {(set) => (
          <>
            <ItemTitle title={set.updatename} save={{ type: 'photo', key: folder }} />
            <ItemMeta modelname={set.modelname} datetoupload={set.datetoupload} count={set.count} />
            <TagList tags={set.tags} />
            {/* Thumbnails are public; the full photos are members-only. A visitor's thumbnail leads to the viewer page, which shows the same lock. */}
            {open ? (
              <SetDownload folder={folder} />
            ) : access.status === 'unknown' ? null : (
              <LockedNotice access={access} what="This photo set" />
            )}
            {set.files.length ? (
              <ul className="grid grid-thumbs">
                {set.files.map((image, index) => (
                  <li key={image}>
                    {/* Named on the link: the image inside loads only when scrolled near. */}
                    <Link to={photoPath(folder, image)} aria-label={`Photo ${index + 1} of ${set.files.length}`}>
                      <LazyImage
                        src={`/members/photosthumbs/${dir}/${encodeURIComponent(image)}`}
                        alt=""
                        sizes="(min-width: 1024px) 20vw, 50vw"
                      />
                    </Link>
                  </li>
                ))}
              </ul>
            ) : (
              <p>No photos in this set.</p>
            )}
            <ReportLink path={`/photos/${folder}`} />
          </>
        )}
      </ResourceView>
    </section>
  );
}

/** The whole set as one ZIP, through a signed link (48 h, resumable by any download manager). */
function SetDownload({ folder }: { folder: string }) {
  return (
    <p className="button-row">
      <DownloadButton path={setZipPath(folder)} label="Download the set (ZIP)" />
    </p>
  );
}
