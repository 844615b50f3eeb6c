import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { NOTE_MAX } from '@media-site/contracts/report-vocabulary';
import {
  contentApi,
  when,
  type ContentEdit,
  type ContentItem,
  type ContentKind,
  type ContentQuery,
  type ContentState,
} from '../shared/api';
import { ErrorText } from '../shared/ErrorText';
import { Table } from '../shared/Table';
import { useAdminCall } from '../shared/useAdminCall';

// The Content screen (issue 24): find any item, and (moderator, owner) edit its facts, schedule its
// release, queue its encode again, take it down or restore it. Support sees the list only.

const KIND_TEXT: Record<ContentKind, string> = {
  photoset: 'Photo set',
  freephotoset: 'Free set',
  video: 'Video',
  vod: 'VOD',
  model: 'Model',
};
const SITE_PREFIX: Record<ContentKind, string> = {
  photoset: '/photos/',
  freephotoset: '/freephotos/',
  video: '/video/',
  vod: '/vod/',
  model: '/models/',
};
const STATE_TEXT: Record<ContentState, string> = { all: 'Any', live: 'Published', scheduled: 'Scheduled', takendown: 'Taken down' };

const sitePath = (item: ContentItem) => `${SITE_PREFIX[item.type]}${encodeURIComponent(item.path)}`;
const zone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'local time';
/** In the operator's zone, with its name ("27 Nov 2026, 03:26 CET"); dateStyle cannot be combined with timeZoneName. */
const localTime = (ms: number) =>
  new Date(ms).toLocaleString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  });

/** A datetime-local value (the operator's zone): the start of the minute after next, a minute or more ahead. */
function inAMinute(): string {
  const d = new Date(Math.ceil((Date.now() + 60_000) / 60_000) * 60_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

type Action = { kind: 'edit' | 'schedule' | 'takedown' | 'restore'; item: ContentItem };

function EncodeState({ item }: { item: ContentItem }) {
  if (item.type !== 'video' && item.type !== 'vod') return <>—</>;
  const job = item.encode;
  if (!job) return <>not queued</>;
  const attempts = `${job.attempts} attempt${job.attempts === 1 ? '' : 's'}`;
  return (
    <span className={`admin-encode admin-encode-${job.status}`}>
      <strong>{job.status === 'running' ? `running ${Math.floor(job.progress * 100)}%` : job.status}</strong>
      {`, ${attempts}`}
      {job.error && <span className="admin-encode-error">Last error: {job.error}</span>}
    </span>
  );
}

function Release({ item }: { item: ContentItem }) {
  if (item.takenDown) return <strong>Taken down</strong>;
  if (item.publishAt === null) return <>{item.type === 'model' ? '—' : 'Published'}</>;
  return (
    <span>
      <strong>Scheduled</strong> {localTime(item.publishAt)}
      <br />
      <small>{when(item.publishAt)}</small>
    </span>
  );
}

/** The form for the chosen action, above the list. */
function ActionPanel({
  action,
  busy,
  onDone,
  onCancel,
}: {
  action: Action;
  busy: boolean;
  onDone: (call: () => Promise<string>) => void;
  onCancel: () => void;
}) {
  const { item, kind } = action;
  const id = useId();
  const [title, setTitle] = useState(item.title);
  const [model, setModel] = useState(item.model ?? '');
  const [date, setDate] = useState(item.date ?? '');
  const [price, setPrice] = useState(item.price ?? '');
  const [at, setAt] = useState(inAMinute);
  const [reason, setReason] = useState('');
  const name = `${KIND_TEXT[item.type]} ${item.path}`;
  const atMs = at ? new Date(at).getTime() : NaN;

  function submit(event: FormEvent) {
    event.preventDefault();
    const path = sitePath(item);
    if (kind === 'edit') {
      const edit: ContentEdit = {};
      if (title !== item.title) edit.title = title;
      if (item.model !== null && model !== item.model) edit.model = model;
      if (date !== item.date) edit.date = date;
      if (item.price !== null && price !== item.price) edit.price = price;
      onDone(async () => {
        const { changed } = await contentApi.edit(path, edit);
        return changed.length ? `${name}: ${changed.join(', ')} saved.` : `${name} already had these values: nothing changed.`;
      });
    } else if (kind === 'schedule') {
      onDone(async () => {
        if (!Number.isFinite(atMs)) throw new Error('Choose a release date and time.');
        const { item: after } = await contentApi.schedule(path, new Date(atMs).toISOString());
        return after.publishAt === null
          ? `${name} is published now (the time had passed).`
          : `${name} is scheduled for ${localTime(after.publishAt)} (${when(after.publishAt)}).`;
      });
    } else
      onDone(async () => {
        await (kind === 'takedown' ? contentApi.takedown : contentApi.restore)(path, reason.trim());
        return kind === 'takedown' ? `${name} is taken down.` : `${name} is restored.`;
      });
  }

  const heading = { edit: 'Edit', schedule: 'Schedule', takedown: 'Take down', restore: 'Restore' }[kind];
  return (
    <form className="admin-panel" aria-labelledby={`${id}-h`} onSubmit={submit}>
      <h2 id={`${id}-h`}>
        {heading} {name}
      </h2>
      {kind === 'edit' && (
        <div className="admin-fields">
          <label htmlFor={`${id}-title`}>Title</label>
          <input id={`${id}-title`} required maxLength={200} value={title} onChange={(e) => setTitle(e.target.value)} autoFocus />
          {item.model !== null && (
            <>
              <label htmlFor={`${id}-model`}>Model</label>
              <input id={`${id}-model`} required maxLength={100} value={model} onChange={(e) => setModel(e.target.value)} />
            </>
          )}
          <label htmlFor={`${id}-date`}>Date</label>
          <input
            id={`${id}-date`}
            type="date"
            required
            min="1990-01-01"
            max="2099-12-31"
            value={date}
            onChange={(e) => setDate(e.target.value)}
          />
          {item.price !== null && (
            <>
              <label htmlFor={`${id}-price`}>Price (in the site's currency)</label>
              <input
                id={`${id}-price`}
                required
                inputMode="decimal"
                maxLength={9}
                pattern="\d{1,6}(\.\d{1,2})?"
                value={price}
                onChange={(e) => setPrice(e.target.value)}
              />
            </>
          )}
        </div>
      )}
      {kind === 'schedule' && (
        <div className="admin-fields">
          <label htmlFor={`${id}-at`}>Release at ({zone()})</label>
          <input id={`${id}-at`} type="datetime-local" required value={at} onChange={(e) => setAt(e.target.value)} autoFocus />
          <p className="admin-hint">
            {Number.isFinite(atMs) ? `That is ${when(atMs)}. ` : ''}Until then, visitors and members do not see it anywhere.
          </p>
        </div>
      )}
      {(kind === 'takedown' || kind === 'restore') && (
        <div className="admin-fields">
          <label htmlFor={`${id}-reason`}>Why {kind === 'takedown' ? 'take it down' : 'restore it'}?</label>
          <input id={`${id}-reason`} required maxLength={NOTE_MAX} value={reason} onChange={(e) => setReason(e.target.value)} autoFocus />
        </div>
      )}
      <p className="admin-inline">
        <button type="submit" className={kind === 'takedown' ? 'admin-danger' : undefined} disabled={busy}>
          {kind === 'edit' ? 'Save changes' : kind === 'schedule' ? 'Schedule release' : kind === 'takedown' ? 'Take down' : 'Restore'}
        </button>
        <button type="button" className="admin-secondary" onClick={onCancel}>
          Cancel
        </button>
      </p>
    </form>
  );
}

export function Content({ onSignedOut, canChange }: { onSignedOut: () => void; canChange: boolean }) {
  const [form, setForm] = useState<ContentQuery>({ q: '', type: '', state: 'all', page: 1 });
  const [query, setQuery] = useState<ContentQuery>(form);
  const [found, setFound] = useState<{ items: ContentItem[]; more: boolean } | undefined>(undefined);
  const [action, setAction] = useState<Action | null>(null);
  const [notice, setNotice] = useState('');
  const { error, busy, run } = useAdminCall(onSignedOut);
  const id = useId();

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

  function search(event: FormEvent) {
    event.preventDefault();
    setNotice('');
    setQuery({ ...form, q: form.q.trim(), page: 1 });
  }

  async function act(call: () => Promise<string>) {
    const done = await run(call);
    if (done === undefined) return;
    setNotice(done);
    setAction(null);
    await load(query);
  }

  const columns = ['Item', 'Model', 'Date', 'Price', 'Release', 'Encode', ...(canChange ? ['Change'] : [])];
  return (
    <section aria-busy={busy}>
      <form role="search" className="admin-inline admin-filters" onSubmit={search}>
        <label htmlFor={`${id}-q`}>Title, model or path</label>
        <input id={`${id}-q`} type="search" maxLength={100} value={form.q} onChange={(e) => setForm({ ...form, q: e.target.value })} />
        <label htmlFor={`${id}-type`}>Type</label>
        <select id={`${id}-type`} value={form.type} onChange={(e) => setForm({ ...form, type: e.target.value as ContentKind | '' })}>
          <option value="">All items</option>
          {(Object.keys(KIND_TEXT) as ContentKind[]).map((k) => (
            <option key={k} value={k}>
              {k === 'model' ? 'Models' : `${KIND_TEXT[k]}s`}
            </option>
          ))}
        </select>
        <label htmlFor={`${id}-state`}>State</label>
        <select id={`${id}-state`} value={form.state} onChange={(e) => setForm({ ...form, state: e.target.value as ContentState })}>
          {(Object.keys(STATE_TEXT) as ContentState[]).map((s) => (
            <option key={s} value={s}>
              {STATE_TEXT[s]}
            </option>
          ))}
        </select>
        <button type="submit" disabled={busy}>
          Find
        </button>
      </form>
      <p className="admin-hint">
        Times are shown in your zone ({zone()}) and in UTC.
        {canChange ? '' : ' Your role sees content; a moderator or the owner changes it.'}
      </p>
      <ErrorText message={error} />
      {notice && (
        <p role="status" className="admin-notice">
          {notice}
        </p>
      )}
      {action && (
        <ActionPanel
          key={`${action.kind} ${action.item.type} ${action.item.path}`}
          action={action}
          busy={busy}
          onDone={(call) => void act(call)}
          onCancel={() => setAction(null)}
        />
      )}
      {found?.items.length === 0 && <p>Nothing matches.</p>}
      {found && found.items.length > 0 && (
        <Table
          caption={`Page ${query.page}: ${found.items.length} item${found.items.length === 1 ? '' : 's'}, newest first`}
          columns={columns}
        >
          {found.items.map((item) => (
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
              {canChange && (
                <td>
                  {item.type !== 'model' && (
                    <span className="admin-actions">
                      <button type="button" className="admin-secondary" onClick={() => setAction({ kind: 'edit', item })}>
                        Edit…
                      </button>
                      {item.publishAt === null ? (
                        <button type="button" className="admin-secondary" onClick={() => setAction({ kind: 'schedule', item })}>
                          Schedule…
                        </button>
                      ) : (
                        <button
                          type="button"
                          className="admin-secondary"
                          disabled={busy}
                          onClick={() =>
                            void act(async () => {
                              await contentApi.schedule(sitePath(item), null);
                              return `${KIND_TEXT[item.type]} ${item.path} is unscheduled and published now.`;
                            })
                          }
                        >
                          Unschedule
                        </button>
                      )}
                      {(item.encode?.status === 'done' || item.encode?.status === 'failed') && (
                        <button
                          type="button"
                          className="admin-secondary"
                          disabled={busy}
                          onClick={() =>
                            void act(async () => {
                              await contentApi.reencode(sitePath(item));
                              return `${KIND_TEXT[item.type]} ${item.path} is queued for encoding again.`;
                            })
                          }
                        >
                          Re-encode
                        </button>
                      )}
                      {item.takenDown ? (
                        <button type="button" className="admin-secondary" onClick={() => setAction({ kind: 'restore', item })}>
                          Restore…
                        </button>
                      ) : (
                        <button
                          type="button"
                          className="admin-secondary admin-danger-text"
                          onClick={() => setAction({ kind: 'takedown', item })}
                        >
                          Take down…
                        </button>
                      )}
                    </span>
                  )}
                </td>
              )}
            </tr>
          ))}
        </Table>
      )}
      {found && (query.page > 1 || found.more) && (
        <nav className="admin-pager" aria-label="Pages">
          <button
            type="button"
            className="admin-secondary"
            disabled={busy || query.page === 1}
            onClick={() => setQuery({ ...query, page: query.page - 1 })}
          >
            Previous page
          </button>
          <button
            type="button"
            className="admin-secondary"
            disabled={busy || !found.more}
            onClick={() => setQuery({ ...query, page: query.page + 1 })}
          >
            Next page
          </button>
        </nav>
      )}
    </section>
  );
}
