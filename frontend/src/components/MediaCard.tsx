import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { mayViewMembersArea, ownsVod, useAccess, type Access } from '../features/access/useAccess';
import { durationFact, knownFacts, photoCountFact, type CardFact } from './cardFacts';
import { LazyImage } from './LazyImage';
import { SaveButton } from '../features/saved/SaveButton';
import type { SavedType } from '../features/saved/api';
import { useSpritePreview } from './useSpritePreview';

interface MediaCardProps {
  to: string;
  title: string;
  thumbnail: string | null | undefined;
  /** Facts the listing's API answer gives (photo count, running time, a VOD's price), drawn as small badges beside the access mark. */
  facts?: CardFact[];
  /** A video's or VOD's WebVTT thumbnails track: its sprite frames step over the picture on hover and focus. */
  preview?: string | null;
  /** What the card's heart saves to My list (signed-in members only). */
  save?: { type: SavedType; key: string };
  children?: ReactNode;
}

function folderOf(to: string, prefix: string): string | undefined {
  if (!to.startsWith(prefix)) return undefined;
  try {
    return decodeURIComponent(to.slice(prefix.length));
  } catch {
    return to.slice(prefix.length);
  }
}

/**
 * What a listing says about the item, from the session's own answer (useAccess): photo sets and
 * videos are members-only until a membership is active; a VOD the member bought is owned.
 */
function badgeFor(to: string, access: Access): { label: string; className: string } | undefined {
  if (access.status === 'unknown') return undefined;
  const vod = folderOf(to, '/vod/');
  if (vod !== undefined) return ownsVod(access, vod) ? { label: 'Owned', className: 'badge badge-owned' } : undefined;
  const membersOnly = to.startsWith('/photos/') || to.startsWith('/video/');
  return membersOnly && !mayViewMembersArea(access) ? { label: 'Members only', className: 'badge badge-locked' } : undefined;
}

export function MediaCard({ to, title, thumbnail, facts = [], preview, save, children }: MediaCardProps) {
  const badge = badgeFor(to, useAccess());
  const sprite = useSpritePreview(preview);
  return (
    <li className="card">
      <Link to={to} {...sprite.handlers}>
        <div className="card-picture" ref={sprite.box}>
          {/* The title sits in the same link, so the thumbnail is decorative (WCAG H2): an empty alt avoids reading it twice. */}
          {thumbnail ? <LazyImage src={thumbnail} alt="" /> : <div className="lazy-image no-image" aria-hidden="true" />}
          {sprite.style && <span className="card-preview" style={sprite.style} aria-hidden="true" />}
        </div>
        <span className="card-title">{title}</span>
      </Link>
      {/* Beside the link, not in it (no button inside a link); drawn over the picture's corner. */}
      {save && <SaveButton type={save.type} itemKey={save.key} title={title} compact />}
      {/* Beside the link, not in it: the link keeps the item's title as its name. */}
      {(badge || facts.length > 0) && (
        <p className="card-badge">
          {badge && <span className={badge.className}>{badge.label}</span>}
          {facts.map((fact) => (
            <span key={fact.text} className="badge badge-fact">
              {fact.label && <span className="visually-hidden">{fact.label} </span>}
              {fact.text}
            </span>
          ))}
        </p>
      )}
      {children && <div className="card-meta">{children}</div>}
    </li>
  );
}

const SAVED_TYPE = { photos: 'photo', video: 'video', vod: 'vod' } as const;

/**
 * What a gallery knows of an item: its folder, its title, maybe a thumbnail of its own and, for an
 * encoded video or VOD, its thumbnails track (the API's `preview`).
 */
interface ListedItem {
  path: string;
  updatename: string;
  thumbnail?: string | null;
  preview?: string | null;
}

/**
 * An item's card in a gallery (/photos, /videos, /vod, a model's page, search): it links to
 * `/{section}/{folder}` and shows the item's thumbnail, or the one stored for its folder
 * (`storedThumbnail` of the encoded folder); a video's or VOD's card previews its sprite on hover.
 */
export function ListedCard({
  item,
  section,
  storedThumbnail,
  facts,
  children,
}: {
  item: ListedItem;
  section: 'photos' | 'video' | 'vod';
  storedThumbnail?: (dir: string) => string;
  facts?: CardFact[];
  children?: ReactNode;
}) {
  const dir = encodeURIComponent(item.path);
  return (
    <MediaCard
      to={`/${section}/${dir}`}
      title={item.updatename}
      thumbnail={item.thumbnail ?? storedThumbnail?.(dir)}
      facts={facts}
      preview={item.preview}
      save={{ type: SAVED_TYPE[section], key: item.path }}
    >
      {children}
    </MediaCard>
  );
}

/**
 * The card of a listing that mixes kinds (the home page's columns, a model's page, search): the API
 * answer carries each item's own thumbnail, and its photo count or running time where it has one.
 */
export function MixedListedCard({
  item,
  section,
  children,
}: {
  item: ListedItem & { photocount?: number | null; duration?: number | null };
  section: 'photos' | 'video' | 'vod';
  children?: ReactNode;
}) {
  return (
    <ListedCard item={item} section={section} facts={knownFacts(photoCountFact(item.photocount), durationFact(item.duration))}>
      {children}
    </ListedCard>
  );
}
