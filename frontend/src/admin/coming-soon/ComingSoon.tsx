import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { screenPath } from '../screens';
import { adminApi, when, type ScheduledItem } from '../shared/api';
import { ErrorText } from '../shared/ErrorText';
import { Notice } from '../shared/Notice';
import { Table } from '../shared/Table';
import { useAdminCall } from '../shared/useAdminCall';

const SITE_PATH: Record<ScheduledItem['type'], string> = { photoset: 'photos', video: 'video', vod: 'vod' };
const TYPE_TEXT: Record<ScheduledItem['type'], string> = { photoset: 'Photo set', video: 'Video', vod: 'VOD' };

/** Scheduled photo sets, videos and VODs, and whether visitors see a "Coming soon" card for each. */
export function ComingSoon({ onSignedOut }: { onSignedOut: () => void }) {
  const [items, setItems] = useState<ScheduledItem[] | undefined>(undefined);
  const [notice, setNotice] = useState('');
  const { error, busy, run } = useAdminCall(onSignedOut);

  const load = useCallback(async () => {
    const answer = await run(() => adminApi.scheduled());
    if (answer) setItems(answer.items);
  }, [run]);

  useEffect(() => {
    void load();
  }, [load]);

  async function toggle(item: ScheduledItem) {
    const done = await run(() => adminApi.tease(`/${SITE_PATH[item.type]}/${item.path}`, !item.teased));
    if (!done) return;
    setNotice(done.teased ? `Visitors now see "${item.title}" as coming soon.` : `"${item.title}" is no longer teased.`);
    await load();
  }

  return (
    <section aria-busy={busy}>
      <p>
        A teased item shows on home as a &ldquo;Coming soon&rdquo; card (title, model, cover and release time) until its release; nothing
        else of it is visible before then. Schedule an item (or change or cancel its release) from{' '}
        <Link to={screenPath('content')}>Content</Link>: find it, then Schedule….
      </p>
      <ErrorText message={error} />
      <Notice text={notice} />
      {items?.length === 0 && <p>Nothing is scheduled.</p>}
      {items && items.length > 0 && (
        <Table caption={`${items.length} scheduled, soonest first`} columns={['Release', 'Type', 'Title', 'Path', 'Coming soon']}>
          {items.map((item) => (
            <tr key={`${item.type}/${item.path}`}>
              <td>{when(item.publishAt)}</td>
              <td>{TYPE_TEXT[item.type]}</td>
              <td>{item.title}</td>
              <td>{item.path}</td>
              <td>
                {item.teased ? 'Teased ' : 'Hidden '}
                <button type="button" className="admin-secondary" disabled={busy} onClick={() => void toggle(item)}>
                  {item.teased ? `Stop teasing ${item.title}` : `Tease ${item.title}`}
                </button>
              </td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}
