import { contentApi, type ContentItem } from '../shared/api';
import type { Action } from './ActionPanel';
import { itemName, sitePath } from './format';

/** An item's changes: those with a form open the panel; unschedule and re-encode go at once. */
export function ItemActions({
  item,
  busy,
  onOpen,
  onChange,
}: {
  item: ContentItem;
  busy: boolean;
  onOpen: (action: Action) => void;
  onChange: (call: () => Promise<string>) => void;
}) {
  if (item.type === 'model') return null;
  const unschedule = async () => {
    await contentApi.schedule(sitePath(item), null);
    return `${itemName(item)} is unscheduled and published now.`;
  };
  const reencode = async () => {
    await contentApi.reencode(sitePath(item));
    return `${itemName(item)} is queued for encoding again.`;
  };
  return (
    <span className="admin-actions">
      <button type="button" className="admin-secondary" onClick={() => onOpen({ kind: 'edit', item })}>
        Edit…
      </button>
      {item.publishAt === null ? (
        <button type="button" className="admin-secondary" onClick={() => onOpen({ kind: 'schedule', item })}>
          Schedule…
        </button>
      ) : (
        <button type="button" className="admin-secondary" disabled={busy} onClick={() => onChange(unschedule)}>
          Unschedule
        </button>
      )}
      {(item.encode?.status === 'done' || item.encode?.status === 'failed') && (
        <button type="button" className="admin-secondary" disabled={busy} onClick={() => onChange(reencode)}>
          Re-encode
        </button>
      )}
      {item.takenDown ? (
        <button type="button" className="admin-secondary" onClick={() => onOpen({ kind: 'restore', item })}>
          Restore…
        </button>
      ) : (
        <button type="button" className="admin-secondary admin-danger-text" onClick={() => onOpen({ kind: 'takedown', item })}>
          Take down…
        </button>
      )}
    </span>
  );
}
