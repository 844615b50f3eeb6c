import type { ReactNode } from 'react';

/**
 * A console table: a caption, column headings, and the rows; scrolls sideways on a narrow screen,
 * where its wrapper takes the keyboard's focus (a named region) so the hidden columns can be reached.
 */
export function Table({ caption, columns, children }: { caption: string; columns: readonly string[]; children: ReactNode }) {
  return (
    <div className="admin-table-wrap" role="region" aria-label={caption} tabIndex={0}>
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
