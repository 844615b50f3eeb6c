import { Link, useParams } from 'react-router-dom';
import { LazyImage } from '../../../components/LazyImage';
import { ResourceView } from '../../../components/StatusMessage';
import { useResource } from '../../../hooks/useResource';
import { getThumbnails } from '../api/getThumbnails';

export function PhotoSetPage() {
  const folder = useParams().folder ?? '';
  const resource = useResource(`thumbnails:${folder}`, (signal) => getThumbnails(folder, signal));
  const dir = encodeURIComponent(folder);

  return (
    <section>
      <h1>Photo set {folder}</h1>
      <ResourceView resource={resource}>
        {(images) =>
          images.length ? (
            <ul className="grid grid-thumbs">
              {images.map((image, index) => (
                <li key={image}>
                  <Link to={`/members/photos/${dir}/${encodeURIComponent(image)}`}>
                    <LazyImage
                      src={`/members/photosthumbs/${dir}/${encodeURIComponent(image)}`}
                      alt={`Photo ${index + 1} of ${images.length}`}
                      sizes="(min-width: 1024px) 20vw, 50vw"
                    />
                  </Link>
                </li>
              ))}
            </ul>
          ) : (
            <p>No photos in this set.</p>
          )
        }
      </ResourceView>
    </section>
  );
}
