import { Link, useParams } from 'react-router-dom';
import { LazyImage } from '../../../components/LazyImage';
import { ResourceView } from '../../../components/StatusMessage';
import { useResource } from '../../../hooks/useResource';
import { getFreeThumbnails } from '../api/getFreeThumbnails';

// Invented partner names: placeholders until real partners are agreed.
const PARTNERS = [
  { name: 'Strength Gallery', href: 'https://strength-gallery.example/' },
  { name: 'Iron Portraits', href: 'https://iron-portraits.example/' },
  { name: 'Power Studio', href: 'https://power-studio.example/' },
];

export function FreePhotosPage() {
  const folder = useParams().folder ?? '';
  const resource = useResource(`freethumbnails:${folder}`, (signal) => getFreeThumbnails(folder, signal));
  const dir = encodeURIComponent(folder);

  return (
    <section>
      <h1>Free photos</h1>
      <ResourceView resource={resource}>
        {(images) =>
          images.length ? (
            <ul className="grid grid-thumbs">
              {images.map((image, index) => {
                const src = `/members/freephotos/${dir}/${encodeURIComponent(image)}`;
                return (
                  <li key={image}>
                    <Link to={src}>
                      <LazyImage src={src} alt={`Free photo ${index + 1} of ${images.length}`} />
                    </Link>
                  </li>
                );
              })}
            </ul>
          ) : (
            <p>No free photos in this set.</p>
          )
        }
      </ResourceView>
      <aside className="partners" aria-label="Partner sites">
        <p>More from our partners:</p>
        <ul className="link-list inline">
          {PARTNERS.map((partner) => (
            <li key={partner.href}>
              <a href={partner.href} rel="noopener" target="_blank">
                {partner.name}
              </a>
            </li>
          ))}
        </ul>
      </aside>
    </section>
  );
}
