import { useId, useState } from 'react';
import { contentApi, type BulkAction, type ContentBulkResult } from '../shared/api';
import { Table } from '../shared/Table';

const ACTIONS: Record<BulkAction, { label: string; done: string }> = {
  takedown: { label: 'Take down', done: 'taken down' },
  restore: { label: 'Restore', done: 'restored' },
  schedule: { label: 'Schedule', done: 'scheduled' },
  unschedule: { label: 'Unschedule (publish now)', done: 'published' },
  reencode: { label: 'Re-encode', done: 'queued for encoding again' },
};
const OUTCOME_TEXT = { changed: 'Will change', unchanged: 'Already so', failed: 'Cannot' } as const;

const count = (n: number) => `${n} item${n === 1 ? '' : 's'}`;

/** "3 items taken down. 1 item already so. 1 item could not be: no such item." */
function summary(done: ContentBulkResult, action: BulkAction): string {
  const unchanged = done.items.filter((i) => i.outcome === 'unchanged').length;
  const failed = done.items.filter((i) => i.outcome === 'failed');
  return [
    `${count(done.changed)} ${ACTIONS[action].done}.`,
    unchanged ? `${count(unchanged)} already so.` : '',
    failed.length ? `${count(failed.length)} could not be: ${failed[0]!.detail}.` : '',
  ]
    .filter(Boolean)
    .join(' ');
}

/**
 * One change for the selected items: choose it, see per item what it would do (Preview), then apply
 * it to all of them. The server applies and audits each item on its own and says which did not change.
 */
interface BulkBarProps {
  paths: string[];
  busy: boolean;
  onDone: (call: () => Promise<string>) => void;
  onClear: () => void;
}

export function BulkBar({ paths, busy, onDone, onClear }: BulkBarProps) {
  const id = useId();
  const [action, setAction] = useState<BulkAction>('takedown');
  const [reason, setReason] = useState('');
  const [at, setAt] = useState('');
  const [preview, setPreview] = useState<ContentBulkResult | null>(null);
  const [error, setError] = useState('');
  const needsReason = action === 'takedown' || action === 'restore';
  const change = () => ({
    action,
    paths,
    ...(needsReason ? { reason: reason.trim() } : {}),
    ...(action === 'schedule' && at ? { at: new Date(at).toISOString() } : {}),
  });

  const showPreview = () => {
    setError('');
    contentApi.bulk({ ...change(), preview: true }).then(setPreview, (e: Error) => setError(e.message));
  };

  function apply() {
    onDone(async () => summary(await contentApi.bulk({ ...change(), preview: false }), action));
  }

  return (
    <section className="admin-panel admin-bulk" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{count(paths.length)} selected</h2>
      <div className="admin-bulk-row">
        <label htmlFor={`${id}-action`}>Change</label>
        <select
          id={`${id}-action`}
          value={action}
          onChange={(e) => {
            setAction(e.target.value as BulkAction);
            setPreview(null);
          }}
        >
          {(Object.keys(ACTIONS) as BulkAction[]).map((a) => (
            <option key={a} value={a}>
              {ACTIONS[a].label}
            </option>
          ))}
        </select>
        {needsReason && (
          <>
            <label htmlFor={`${id}-reason`}>Why?</label>
            <input id={`${id}-reason`} maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
          </>
        )}
        {action === 'schedule' && (
          <>
            <label htmlFor={`${id}-at`}>Release at</label>
            <input id={`${id}-at`} type="datetime-local" value={at} onChange={(e) => setAt(e.target.value)} />
          </>
        )}
        <button type="button" className="admin-secondary" disabled={busy} onClick={showPreview}>
          Preview
        </button>
        <button type="button" className="admin-secondary" disabled={busy} onClick={onClear}>
          Clear selection
        </button>
      </div>
      {error && (
        <p className="admin-error" role="alert">
          {error}
        </p>
      )}
      {preview && <BulkPreview preview={preview} action={action} busy={busy} onApply={apply} />}
    </section>
  );
}

/** Per item what the chosen change would do, and the button that applies it to those it changes. */
function BulkPreview({
  preview,
  action,
  busy,
  onApply,
}: {
  preview: ContentBulkResult;
  action: BulkAction;
  busy: boolean;
  onApply: () => void;
}) {
  return (
    <>
      <Table caption={`${ACTIONS[preview.action].label}: ${count(preview.changed)} would change`} columns={['Item', 'Outcome']}>
        {preview.items.map((item) => (
          <tr key={item.path}>
            <td>{item.title ?? item.path}</td>
            <td>
              {OUTCOME_TEXT[item.outcome]}: {item.detail}
            </td>
          </tr>
        ))}
      </Table>
      <button
        type="button"
        className={action === 'takedown' ? 'admin-danger' : undefined}
        disabled={busy || preview.changed === 0 || preview.action !== action}
        onClick={onApply}
      >
        {ACTIONS[action].label}: apply to {count(preview.changed)}
      </button>
    </>
  );
}
