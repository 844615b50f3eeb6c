import type { ContentItem } from '../shared/api';
import { Table } from '../shared/Table';
import type { Action } from './ActionPanel';
import { KIND_TEXT, sitePath } from './format';
import { ItemActions } from './ItemActions';
import { EncodeState, Release } from './ItemState';

/** One page of items; with `changes` (moderator, owner), a column of what may be changed. */
export function ContentTable({
  items,
  page,
  busy,
  changes,
}: {
  items: ContentItem[];
  page: number;
  busy: boolean;
  changes: { onOpen: (action: Action) => void; onChange: (call: () => Promise<string>) => void } | null;
}) {
  const columns = ['Item', 'Model', 'Date', 'Price', 'Release', 'Encode', ...(changes ? ['Change'] : [])];
  return (
    <Table caption={`Page ${page}: ${items.length} item${items.length === 1 ? '' : 's'}, newest first`} columns={columns}>
      {items.map((item) => (
        <tr key={`${item.type} ${item.path}`}>
          <td>
            <strong>{item.title}</strong>
            <br />
            <small>
              {KIND_TEXT[item.type]}{' '}
              <a href={sitePath(item)} target="_blank" rel="noreferrer">
                {sitePath(item)}
              </a>
              {item.items !== undefined && ` · ${item.items} item${item.items === 1 ? '' : 's'}`}
            </small>
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
  );
}
