import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { LazyImage } from './LazyImage';

interface MediaCardProps {
  to: string;
  title: string;
  thumbnail: string | null | undefined;
  children?: ReactNode;
}

export function MediaCard({ to, title, thumbnail, children }: MediaCardProps) {
  return (
    <li className="card">
      <Link to={to}>
        {/* The title sits in the same link, so the thumbnail is decorative (WCAG H2): an empty alt avoids reading it twice. */}
        {thumbnail ? <LazyImage src={thumbnail} alt="" /> : <div className="lazy-image no-image" aria-hidden="true" />}
        <span className="card-title">{title}</span>
      </Link>
      {children && <div className="card-meta">{children}</div>}
    </li>
  );
}
