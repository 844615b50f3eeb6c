import { useEffect, useId, useState, type FormEvent } from 'react';
import { adminApi, when, type VodPriceAnswer } from '../shared/api';
import { ErrorText } from '../shared/ErrorText';
import { Notice } from '../shared/Notice';
import { useAdminCall } from '../shared/useAdminCall';

/**
 * The default VOD price: what a VOD ingested without a price in its meta.json costs (a VOD's own
 * price, from meta.json or Content, always wins; existing VODs keep theirs). Empty clears it.
 */
export function VodPrice({ canChange, onSignedOut }: { canChange: boolean; onSignedOut: () => void }) {
  const [saved, setSaved] = useState<VodPriceAnswer | undefined>(undefined);
  const [draft, setDraft] = useState('');
  const [notice, setNotice] = useState('');
  const { error, busy, run } = useAdminCall(onSignedOut);
  const id = useId();

  function show(answer: VodPriceAnswer) {
    setSaved(answer);
    setDraft(answer.price ?? '');
  }
  useEffect(() => {
    void run(() => adminApi.vodPrice()).then((answer) => answer && show(answer));
  }, [run]);

  async function save(event: FormEvent) {
    event.preventDefault();
    const answer = await run(() => adminApi.setVodPrice(draft.trim() === '' ? null : draft.trim()));
    if (!answer) return;
    show(answer);
    setNotice(
      answer.price ? `Saved. A VOD ingested without a price now costs $${answer.price}.` : 'Cleared. Every VOD needs its own price.',
    );
  }

  return (
    <section aria-labelledby={`${id}-h`} aria-busy={busy}>
      <h2 id={`${id}-h`}>Default VOD price</h2>
      <p>
        What a VOD costs when its folder&apos;s meta.json names no price. A VOD&apos;s own price (meta.json, or Content&apos;s Edit) always
        wins, and VODs already on the site keep theirs.
      </p>
      {saved && (
        <p>
          In force: {saved.price ? `$${saved.price}` : 'none (every VOD needs its own price)'}.
          {saved.setBy ? ` Last changed by ${saved.setBy} on ${when(saved.setAt)}.` : ''}
        </p>
      )}
      {saved && canChange && (
        <form className="admin-inline" onSubmit={(e) => void save(e)}>
          <label htmlFor={`${id}-price`}>Default price</label>
          <input
            id={`${id}-price`}
            inputMode="decimal"
            placeholder="9.99"
            maxLength={10}
            value={draft}
            onChange={(e) => {
              setDraft(e.target.value);
              setNotice('');
            }}
          />
          <button type="submit" disabled={busy}>
            Save VOD price
          </button>
        </form>
      )}
      <ErrorText message={error} />
      <Notice text={notice} />
    </section>
  );
}
