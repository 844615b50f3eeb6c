import { useId, type FormEvent, type InputHTMLAttributes } from 'react';
import { OFFER_PERIOD_DAYS_MAX, OFFER_TRIAL_DAYS_MAX, offerTerms } from '@media-site/contracts/membership-offer';
import { validOffer, type OfferDraft } from './offer-draft';

/** Longest amount the bff reads ("999.99" is the largest it takes). */
const AMOUNT_MAX = 10;

interface FormProps {
  draft: OfferDraft;
  /** Whether a membership renews (MEMBERSHIP_REBILLS): how the terms are worded. */
  renews: boolean;
  canChange: boolean;
  busy: boolean;
  /** "Save prices" was pressed: the confirmation is showing. */
  asking: boolean;
  onEdit: (change: Partial<OfferDraft>) => void;
  onAsk: (asking: boolean) => void;
  onSave: () => void;
}

/** The price, period and trial, the terms they make, and "Save prices" confirmed once. */
export function PriceForm({ draft, renews, canChange, busy, asking, onEdit, onAsk, onSave }: FormProps) {
  const id = useId();
  const offer = validOffer(draft);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (canChange) onAsk(true);
  }

  return (
    <form className="admin-panel" aria-labelledby={`${id}-h`} onSubmit={submit}>
      <h2 id={`${id}-h`}>Membership for new sign-ups</h2>
      <PriceFields draft={draft} locked={!canChange || busy} onEdit={onEdit} />
      <p className="admin-terms-preview" aria-live="polite">
        {offer
          ? `New members will be charged: ${offerTerms(offer, renews)}`
          : 'The terms new members will be charged show here once every field holds a value the hints allow.'}
      </p>
      {canChange && !asking && (
        <button type="submit" disabled={busy}>
          Save prices
        </button>
      )}
      {asking && (
        <div className="admin-confirm" role="group" aria-label="Confirm the new prices">
          <p>Save: new sign-ups from now on get these terms. Existing members keep theirs.</p>
          <button type="button" disabled={busy} autoFocus onClick={onSave}>
            Yes, save prices
          </button>
          <button type="button" className="admin-secondary" onClick={() => onAsk(false)}>
            Cancel
          </button>
        </div>
      )}
    </form>
  );
}

function PriceFields({ draft, locked, onEdit }: { draft: OfferDraft; locked: boolean; onEdit: FormProps['onEdit'] }) {
  const id = useId();
  const amount = { inputMode: 'decimal', required: true, maxLength: AMOUNT_MAX, disabled: locked } as const;
  const days = (max: number) => ({ type: 'number', inputMode: 'numeric', required: true, min: 1, max, step: 1, disabled: locked }) as const;
  return (
    <div className="admin-fields">
      <Field
        id={`${id}-price`}
        label="Price"
        hint="Dollars and cents, e.g. 14.99"
        {...amount}
        value={draft.price}
        onChange={(e) => onEdit({ price: e.target.value })}
      />
      <Field
        id={`${id}-period`}
        label="Every (days)"
        {...days(OFFER_PERIOD_DAYS_MAX)}
        value={draft.periodDays}
        onChange={(e) => onEdit({ periodDays: e.target.value })}
      />
      <span className="admin-field-check">
        <input
          id={`${id}-trial`}
          type="checkbox"
          disabled={locked}
          checked={draft.trial}
          onChange={(e) => onEdit({ trial: e.target.checked })}
        />
        <label htmlFor={`${id}-trial`}>Offer a trial</label>
      </span>
      {draft.trial && (
        <>
          <Field
            id={`${id}-trial-price`}
            label="Trial price"
            hint="Less than the price, e.g. 1.95"
            {...amount}
            value={draft.trialPrice}
            onChange={(e) => onEdit({ trialPrice: e.target.value })}
          />
          <Field
            id={`${id}-trial-days`}
            label="Trial length (days)"
            {...days(OFFER_TRIAL_DAYS_MAX)}
            value={draft.trialDays}
            onChange={(e) => onEdit({ trialDays: e.target.value })}
          />
        </>
      )}
    </div>
  );
}

/** A label, its input and, in the input's column, a hint the input is described by. */
function Field({ id, label, hint, ...input }: { id: string; label: string; hint?: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-describedby={hint ? `${id}-hint` : undefined} {...input} />
      {hint && (
        <p className="admin-hint admin-field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
    </>
  );
}
