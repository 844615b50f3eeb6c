import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { NOTE_MAX } from '@media-site/contracts/report-vocabulary';
import { TAG_MAX, TAGS_PER_ITEM_MAX } from '@media-site/contracts/search-filters';
import { contentApi, when, type ContentEdit, type ContentItem } from '../shared/api';
import { inAMinute, itemName, localTime, sitePath, tagList, zone } from './format';

export type Action = { kind: 'edit' | 'schedule' | 'takedown' | 'restore'; item: ContentItem };

interface PanelProps {
  item: ContentItem;
  busy: boolean;
  /** Runs the change; its sentence becomes the screen's notice. */
  onDone: (call: () => Promise<string>) => void;
  onCancel: () => void;
}

/** The form for the chosen action, above the list. */
export function ActionPanel({ action, ...props }: { action: Action } & Omit<PanelProps, 'item'>) {
  const { item, kind } = action;
  if (kind === 'edit') return <EditPanel item={item} {...props} />;
  if (kind === 'schedule') return <SchedulePanel item={item} {...props} />;
  return <ReasonPanel kind={kind} item={item} {...props} />;
}

function Panel({
  heading,
  submit,
  danger = false,
  item,
  busy,
  onSubmit,
  onCancel,
  children,
}: Omit<PanelProps, 'onDone'> & { heading: string; submit: string; danger?: boolean; onSubmit: () => void; children: ReactNode }) {
  const id = useId();
  return (
    <form
      className="admin-panel"
      aria-labelledby={`${id}-h`}
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <h2 id={`${id}-h`}>
        {heading} {itemName(item)}
      </h2>
      <div className="admin-fields">{children}</div>
      <p className="admin-inline">
        <button type="submit" className={danger ? 'admin-danger' : undefined} disabled={busy}>
          {submit}
        </button>
        <button type="button" className="admin-secondary" onClick={onCancel}>
          Cancel
        </button>
      </p>
    </form>
  );
}

/** Title, model, date, price and tags: only the changed ones are sent. */
function EditPanel({ item, onDone, ...props }: PanelProps) {
  const id = useId();
  const [title, setTitle] = useState(item.title);
  const [model, setModel] = useState(item.model ?? '');
  const [date, setDate] = useState(item.date ?? '');
  const [price, setPrice] = useState(item.price ?? '');
  const shownTags = item.tags?.join(', ') ?? '';
  const [tags, setTags] = useState(shownTags);

  function save() {
    const edit: ContentEdit = {};
    if (title !== item.title) edit.title = title;
    if (item.model !== null && model !== item.model) edit.model = model;
    if (date !== item.date) edit.date = date;
    if (item.price !== null && price !== item.price) edit.price = price;
    if (item.tags !== undefined && tags !== shownTags) edit.tags = tagList(tags);
    const name = itemName(item);
    onDone(async () => {
      const { changed } = await contentApi.edit(sitePath(item), edit);
      return changed.length ? `${name}: ${changed.join(', ')} saved.` : `${name} already had these values: nothing changed.`;
    });
  }

  return (
    <Panel heading="Edit" submit="Save changes" item={item} onSubmit={save} {...props}>
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
      {item.tags !== undefined && (
        <>
          <label htmlFor={`${id}-tags`}>Tags</label>
          <input
            id={`${id}-tags`}
            aria-describedby={`${id}-tags-hint`}
            maxLength={TAGS_PER_ITEM_MAX * (TAG_MAX + 2)}
            value={tags}
            onChange={(e) => setTags(e.target.value)}
          />
          <p className="admin-hint admin-field-hint" id={`${id}-tags-hint`}>
            Comma-separated, up to {TAGS_PER_ITEM_MAX}, e.g. beach, black and white
          </p>
        </>
      )}
    </Panel>
  );
}

/** A release time in the operator's zone, shown in UTC too; a time already past publishes now. */
function SchedulePanel({ item, onDone, ...props }: PanelProps) {
  const id = useId();
  const [at, setAt] = useState(inAMinute);
  const atMs = at ? new Date(at).getTime() : NaN;

  function schedule() {
    const name = itemName(item);
    onDone(async () => {
      if (!Number.isFinite(atMs)) throw new Error('Choose a release date and time.');
      const { item: after } = await contentApi.schedule(sitePath(item), new Date(atMs).toISOString());
      return after.publishAt === null
        ? `${name} is published now (the time had passed).`
        : `${name} is scheduled for ${localTime(after.publishAt)} (${when(after.publishAt)}).`;
    });
  }

  return (
    <Panel heading="Schedule" submit="Schedule release" item={item} onSubmit={schedule} {...props}>
      <label htmlFor={`${id}-at`}>Release at ({zone()})</label>
      <input id={`${id}-at`} type="datetime-local" required value={at} onChange={(e) => setAt(e.target.value)} autoFocus />
      <p className="admin-hint">
        {Number.isFinite(atMs) ? `That is ${when(atMs)}. ` : ''}Until then, visitors and members do not see it anywhere.
      </p>
    </Panel>
  );
}

/** Take down or restore, saying why (the audit log keeps it). */
function ReasonPanel({ kind, item, onDone, ...props }: PanelProps & { kind: 'takedown' | 'restore' }) {
  const id = useId();
  const [reason, setReason] = useState('');
  const takedown = kind === 'takedown';

  function change() {
    const name = itemName(item);
    onDone(async () => {
      await (takedown ? contentApi.takedown : contentApi.restore)(sitePath(item), reason.trim());
      return takedown ? `${name} is taken down.` : `${name} is restored.`;
    });
  }

  return (
    <Panel
      heading={takedown ? 'Take down' : 'Restore'}
      submit={takedown ? 'Take down' : 'Restore'}
      danger={takedown}
      item={item}
      onSubmit={change}
      {...props}
    >
      <label htmlFor={`${id}-reason`}>Why {takedown ? 'take it down' : 'restore it'}?</label>
      <input id={`${id}-reason`} required maxLength={NOTE_MAX} value={reason} onChange={(e) => setReason(e.target.value)} autoFocus />
    </Panel>
  );
}
