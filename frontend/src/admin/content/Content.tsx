import { useCallback, useEffect, useState } from 'react';
import { contentApi, type ContentItem, type ContentQuery } from '../shared/api';
import { ErrorText } from '../shared/ErrorText';
import { Notice } from '../shared/Notice';
import { useAdminCall } from '../shared/useAdminCall';
import { ActionPanel, type Action } from './ActionPanel';
import { ContentFilters } from './ContentFilters';
import { ContentTable, useSelection } from './ContentTable';
import { BulkBar } from './BulkBar';
import { zone } from './format';
import { SelectAllMatching } from './SelectAllMatching';

// The Content screen: find any item, and (moderator, owner) edit its facts, schedule its release,
// queue its encode again, take it down or restore it, one at a time or many at once (the checkboxes
// keep their choice across pages and searches until applied or cleared). Support sees the list only.

export function Content({ onSignedOut, canChange }: { onSignedOut: () => void; canChange: boolean }) {
  const [query, setQuery] = useState<ContentQuery>({ q: '', type: '', state: 'all', page: 1 });
  const [found, setFound] = useState<{ items: ContentItem[]; more: boolean } | undefined>(undefined);
  const [action, setAction] = useState<Action | null>(null);
  const [notice, setNotice] = useState('');
  const selection = useSelection();
  const { error, busy, run } = useAdminCall(onSignedOut);

  const load = useCallback(
    async (q: ContentQuery) => {
      const answer = await run(() => contentApi.find(q));
      if (answer) setFound(answer);
    },
    [run],
  );
  useEffect(() => {
    void load(query);
  }, [load, query]);

  async function act(call: () => Promise<string>) {
    const done = await run(call);
    if (done === undefined) return;
    setNotice(done);
    setAction(null);
    selection.clear();
    await load(query);
  }
  const change = (call: () => Promise<string>) => void act(call);

  return (
    <section aria-busy={busy}>
      <ContentFilters
        busy={busy}
        onSearch={(q) => {
          setNotice('');
          setQuery(q);
        }}
      />
      <p className="admin-hint">
        Times are shown in your zone ({zone()}) and in UTC.
        {canChange ? '' : ' Your role sees content; a moderator or the owner changes it.'}
      </p>
      <ErrorText message={error} />
      <Notice text={notice} />
      {action && (
        <ActionPanel
          key={`${action.kind} ${action.item.type} ${action.item.path}`}
          action={action}
          busy={busy}
          onDone={change}
          onCancel={() => setAction(null)}
        />
      )}
      {canChange && selection.chosen.size > 0 && (
        <BulkBar paths={[...selection.chosen]} busy={busy} onDone={change} onClear={selection.clear} />
      )}
      {canChange && found && found.items.length > 0 && (query.page > 1 || found.more) && (
        <SelectAllMatching
          query={query}
          busy={busy}
          run={run}
          onChosen={(paths, text) => {
            selection.toggle(paths, true);
            setNotice(text);
          }}
        />
      )}
      {found?.items.length === 0 && <p>Nothing matches.</p>}
      {found && found.items.length > 0 && (
        <ContentTable
          items={found.items}
          page={query.page}
          busy={busy}
          changes={canChange ? { onOpen: setAction, onChange: change } : null}
          selection={canChange ? selection : undefined}
        />
      )}
      {found && (query.page > 1 || found.more) && (
        <Pager page={query.page} more={found.more} busy={busy} onPage={(page) => setQuery({ ...query, page })} />
      )}
    </section>
  );
}

function Pager({ page, more, busy, onPage }: { page: number; more: boolean; busy: boolean; onPage: (page: number) => void }) {
  return (
    <nav className="admin-pager" aria-label="Pages">
      <button type="button" className="admin-secondary" disabled={busy || page === 1} onClick={() => onPage(page - 1)}>
        Previous page
      </button>
      <button type="button" className="admin-secondary" disabled={busy || !more} onClick={() => onPage(page + 1)}>
        Next page
      </button>
    </nav>
  );
}
