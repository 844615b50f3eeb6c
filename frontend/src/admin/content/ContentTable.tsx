import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { ContentItem } from '../shared/api';
import { Table } from '../shared/Table';
import type { Action } from './ActionPanel';
import { KIND_TEXT, sitePath } from './format';
import { ItemActions } from './ItemActions';
import { EncodeState, Release } from './ItemState';

const STATS_TYPE: Partial<Record<ContentItem['type'], string>> = { photoset: 'photo', video: 'video', vod: 'vod' };

/** The Stats screen for an item (its days) or a model (her items); none for a free set. */
function statsAddress(item: ContentItem): string | null {
  if (item.type === 'model') return `/admin/stats?${new URLSearchParams({ model: item.path })}`;
  const type = STATS_TYPE[item.type];
  return type ? `/admin/stats?${new URLSearchParams({ type, path: item.path })}` : null;
}

/** The items a page's checkboxes have chosen, by site path (the bulk change names them so). */
export interface Selection {
  chosen: ReadonlySet<string>;
  toggle: (paths: string[], on: boolean) => void;
  clear: () => void;
}

/** The checkboxes' choice, kept across pages and searches until applied or cleared. */
export function useSelection(): Selection {
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  return {
    chosen,
    toggle: (paths, on) =>
      setChosen((before) => {
        const next = new Set(before);
        for (const p of paths) {
          if (on) next.add(p);
          else next.delete(p);
        }
        return next;
      }),
    clear: () => setChosen(new Set()),
  };
}

/** One page of items; with `changes` (moderator, owner), a column of what may be changed and a checkbox per item. */
export function ContentTable({
  items,
  page,
  busy,
  changes,
  selection,
}: {
  items: ContentItem[];
  page: number;
  busy: boolean;
  changes: { onOpen: (action: Action) => void; onChange: (call: () => Promise<string>) => void } | null;
  selection?: Selection;
}) {
  const columns = ['Item', 'Model', 'Date', 'Price', 'Release', 'Encode', ...(changes ? ['Change'] : [])];
  const selectable = items.filter((item) => item.type !== 'model').map(sitePath);
  const allChosen = selectable.length > 0 && selectable.every((p) => selection?.chosen.has(p));
  return (
    <>
      {selection && selectable.length > 0 && (
        <label className="admin-select-all">
          <input type="checkbox" checked={allChosen} onChange={(e) => selection.toggle(selectable, e.target.checked)} /> Select all{' '}
          {selectable.length} on this page
        </label>
      )}
      <Table caption={`Page ${page}: ${items.length} item${items.length === 1 ? '' : 's'}, newest first`} columns={columns}>
        {items.map((item) => (
          <tr key={`${item.type} ${item.path}`}>
            <td>
              {selection && item.type !== 'model' && (
                <input
                  type="checkbox"
                  className="admin-row-check"
                  aria-label={`Select ${item.title}`}
                  checked={selection.chosen.has(sitePath(item))}
                  onChange={(e) => selection.toggle([sitePath(item)], e.target.checked)}
                />
              )}
              <strong>{item.title}</strong>
              <br />
              <small>
                {KIND_TEXT[item.type]}{' '}
                <a href={sitePath(item)} target="_blank" rel="noreferrer">
                  {sitePath(item)}
                </a>
                {item.items !== undefined && ` · ${item.items} item${item.items === 1 ? '' : 's'}`}
                {statsAddress(item) && (
                  <>
                    {' · '}
                    <Link to={statsAddress(item)!}>Stats</Link>
                  </>
                )}
              </small>
              {item.tags !== undefined && item.tags.length > 0 && (
                <>
                  <br />
                  <small className="admin-tags">Tags: {item.tags.join(', ')}</small>
                </>
              )}
            </td>
            <td>{item.model ?? '—'}</td>
            <td className="admin-nowrap">{item.date ?? '—'}</td>
            <td>{item.price ?? '—'}</td>
            <td>
              <Release item={item} />
            </td>
            <td>
              <EncodeState item={item} />
            </td>
            {changes && (
              <td>
                <ItemActions item={item} busy={busy} {...changes} />
              </td>
            )}
          </tr>
        ))}
      </Table>
    </>
  );
}
