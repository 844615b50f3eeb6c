import { useLocation } from 'react-router-dom';

// nginx hands /members/* to the media service, so this route is reached only by navigating inside the
// app; it shows the file at the very same path.
export function MemberMediaPage() {
  const { pathname } = useLocation();
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
