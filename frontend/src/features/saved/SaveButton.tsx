import { useState } from 'react';
import type { SavedType } from './api';
import { isSaved, toggleSaved, useSaved } from './store';

/**
 * "Save" to My list, on every card and item page, for a signed-in member (visitors see none: there
 * is no list to keep). A toggle (`aria-pressed`) whose name stays "Save" plus the item's title; the
 * heart fills when saved. A model is followed rather than saved (the same list: her new releases
 * show on home and, for a member who asked, by e-mail): "Follow", then "Following". A refused save
 * (a full list, too many a minute, the bff away) says why beside it and leaves the heart as it was.
 */
export function SaveButton({
  type,
  itemKey,
  title,
  compact = false,
}: {
  type: SavedType;
  itemKey: string;
  title: string;
  compact?: boolean;
}) {
  const saved = useSaved();
  const [error, setError] = useState<string | null>(null);
  if (saved.status !== 'ready') return null;
  const pressed = isSaved(saved, type, itemKey);
  const verb = type === 'model' ? 'Follow' : 'Save';
  const text = type === 'model' && pressed ? ' Following' : ` ${verb}`;
  return (
    <span className={compact ? 'save save-compact' : 'save'}>
      <button
        type="button"
        className={pressed ? 'button button-small save-button saved' : 'button button-small save-button'}
        aria-pressed={pressed}
        aria-label={`${verb} ${title}`}
        onClick={() => {
          setError(null);
          toggleSaved({ type, key: itemKey, title }).catch((e: Error) => setError(e.message));
        }}
      >
        <span aria-hidden="true" className="save-heart">
          {pressed ? '♥' : '♡'}
        </span>
        {/* On a card the heart alone shows (the title is beside it). */}
        {compact ? null : text}
      </button>
      {error && (
        <span role="alert" className="save-error">
          {error}
        </span>
      )}
    </span>
  );
}

/** An item page's title with its Save beside it (under it on a narrow screen): one row, so the player keeps its height. */
export function ItemTitle({ title, save }: { title: string; save: { type: SavedType; key: string } }) {
  return (
    <div className="title-row">
      <h1>{title}</h1>
      <SaveButton type={save.type} itemKey={save.key} title={title} />
    </div>
  );
}
