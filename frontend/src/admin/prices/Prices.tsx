import { useEffect, useState } from 'react';
import { adminApi, when, type PricesAnswer } from '../shared/api';
import { ErrorText } from '../shared/ErrorText';
import { Notice } from '../shared/Notice';
import { useAdminCall } from '../shared/useAdminCall';
import { bodyOf, draftOf, type OfferDraft } from './offer-draft';
import { PriceForm } from './PriceForm';
import { VodPrice } from './VodPrice';

/** What new members are charged: the owner sets the price, the period and a trial; support reads them. */
export function Prices({ canChange, onSignedOut }: { canChange: boolean; onSignedOut: () => void }) {
  const [saved, setSaved] = useState<PricesAnswer | undefined>(undefined);
  const [draft, setDraft] = useState<OfferDraft | null>(null);
  const [asking, setAsking] = useState(false);
  const [notice, setNotice] = useState('');
  const { error, busy, run } = useAdminCall(onSignedOut);

  function show(answer: PricesAnswer) {
    setSaved(answer);
    setDraft(draftOf(answer.offer));
  }

  useEffect(() => {
    void run(() => adminApi.prices()).then((answer) => answer && show(answer));
  }, [run]);

  function edit(change: Partial<OfferDraft>) {
    setDraft((d) => d && { ...d, ...change });
    setAsking(false);
    setNotice('');
  }

  async function save() {
    if (!draft) return;
    setAsking(false);
    const answer = await run(() => adminApi.setPrices(bodyOf(draft)));
    if (!answer) return;
    show(answer);
    setNotice('Saved. New sign-ups get these terms.');
  }

  return (
    <section className="admin-prices" aria-busy={busy}>
      <p>
        What new members are charged when they join: the price of each period, its length, and a first period at its own price (a trial). A
        change applies to sign-ups from the moment it is saved; members who joined before keep the terms they joined on.
      </p>
      {saved && (
        <p>
          In force: {saved.terms}{' '}
          {saved.setBy
            ? `Last changed by ${saved.setBy} on ${when(saved.setAt)}.`
            : 'Configured defaults (MEMBERSHIP_PRICE, MEMBERSHIP_PERIOD_DAYS); never changed here.'}
        </p>
      )}
      {saved && !canChange && <p className="admin-hint">Only an owner can change prices.</p>}
      {saved && draft && (
        <PriceForm
          draft={draft}
          renews={saved.renews}
          canChange={canChange}
          busy={busy}
          asking={asking}
          onEdit={edit}
          onAsk={setAsking}
          onSave={() => void save()}
        />
      )}
      <ErrorText message={error} />
      <Notice text={notice} />
      <VodPrice canChange={canChange} onSignedOut={onSignedOut} />
    </section>
  );
}
