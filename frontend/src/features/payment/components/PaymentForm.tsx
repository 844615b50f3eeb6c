import { useEffect, useRef, useState } from 'react';
import type { ChangeEvent, FocusEvent, FormEvent } from 'react';
import { formatPrice } from '../../../config/money';
import { CREDENTIAL_FIELDS, emptyFields, expiryYears, HIDDEN_DEFAULTS, MONTHS } from '../formData';
import type { FieldName, PaymentFields, VodOffer } from '../formData';
import { validateAll, validateField } from '../validation';
import type { FieldErrors } from '../validation';
import { PAYMENT_MESSAGES, TAKEN_MESSAGE } from '../chain';
import { checkUsername } from '../api/checkUsername';
import { getAccount } from '../../account/api/account';
import type { RunPaymentChain } from '../chain';
import { FIELD_GROUPS } from './fieldLayout';
import { COUNTRY_OPTIONS, defaultCountry, groupCardNumber, regionOptions } from '../regions';
import type { FieldSpec } from './fieldLayout';

interface PaymentFormProps {
  runChain: RunPaymentChain;
  onApproved?: () => void;
  /** Buying one VOD as the signed-in member: no new username or password, the VOD's price. */
  vod?: VodOffer;
  /** Shown under the status once approved (the spec's welcome text for a membership). */
  approvedText?: string;
  /**
   * A membership's charge today, as the server's offer says (a trial's price when there is one);
   * null while it is not known (the button then names no amount). Absent: the spec's default.
   */
  amount?: string | null;
  /** The membership terms shown (sent with step 4), and what to do when they changed meanwhile. */
  offerId?: number | undefined;
  onOfferChanged?: () => void;
}

const payLabel = (price: string | number | null) => (price === null ? 'Pay' : `Pay ${formatPrice(price)}`);

// Asked as the visitor types, once they pause: a taken name shows on the field before any card data.
const USERNAME_CHECK_DELAY_MS = 350;

export function PaymentForm({
  runChain,
  onApproved,
  vod,
  approvedText = PAYMENT_MESSAGES.welcome,
  amount,
  offerId,
  onOfferChanged,
}: PaymentFormProps) {
  const [fields, setFields] = useState<PaymentFields>(() => ({ ...emptyFields(), country: defaultCountry() }));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [status, setStatus] = useState('');
  const [detail, setDetail] = useState<string[]>([]);
  const [phase, setPhase] = useState<'idle' | 'busy' | 'approved'>('idle');
  // A ref, not state: two clicks in one frame both see the first one's claim.
  const inFlight = useRef(false);
  const years = expiryYears();
  const skipped = vod ? CREDENTIAL_FIELDS : [];
  const groups = FIELD_GROUPS.map((group) => ({ ...group, fields: group.fields.filter((spec) => !skipped.includes(spec.name)) }));

  // A member buying a VOD gets the receipt at their own address unless they type another: prefilled
  // from the account (a failed read leaves the field empty to fill by hand).
  const vodPath = vod?.path;
  useEffect(() => {
    if (vodPath === undefined) return undefined;
    const controller = new AbortController();
    getAccount(controller.signal).then(
      (account) => setFields((current) => (current.email === '' && account.email ? { ...current, email: account.email } : current)),
      () => {},
    );
    return () => controller.abort();
  }, [vodPath]);

  const username = fields.username;
  const [takenName, setTakenName] = useState('');
  useEffect(() => {
    if (vod || validateField('username', { ...emptyFields(), username }) !== null) return undefined;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      void checkUsername(username, controller.signal).then((available) => {
        if (available === false) {
          setTakenName(username);
          setErrors((current) => ({ ...current, username: TAKEN_MESSAGE }));
        } else if (available === true) {
          setTakenName('');
          setErrors((current) => (current.username === TAKEN_MESSAGE ? { ...current, username: undefined } : current));
        }
      });
    }, USERNAME_CHECK_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [username, vod]);

  // A format problem first; a name the server said is taken stays marked until it changes.
  const fieldError = (name: FieldName, next: PaymentFields) =>
    validateField(name, next) ?? (name === 'username' && !vod && next.username === takenName ? TAKEN_MESSAGE : null) ?? undefined;

  function update(event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) {
    const name = event.target.name as FieldName;
    const value = name === 'cardNumber' ? groupCardNumber(event.target.value) : event.target.value;
    const next = { ...fields, [name]: value };
    // A state picked for one country is no state of another.
    if (name === 'country' && regionOptions(value) !== regionOptions(fields.country)) next.state = '';
    setFields(next);
    if (errors[name]) setErrors({ ...errors, [name]: fieldError(name, next) });
  }

  function blur(event: FocusEvent<HTMLInputElement | HTMLSelectElement>) {
    const name = event.target.name as FieldName;
    setErrors({ ...errors, [name]: fieldError(name, fields) });
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (inFlight.current || phase === 'approved') return;
    const found = validateAll(fields, new Date(), skipped);
    if (!vod && !found.username && fields.username === takenName) found.username = TAKEN_MESSAGE;
    setErrors(found);
    const firstInvalid = Object.keys(found)[0];
    if (firstInvalid) {
      document.getElementById(`pay-${firstInvalid}`)?.focus();
      return;
    }
    inFlight.current = true;
    setPhase('busy');
    const onFieldError = (field: 'username', message: string) => {
      setTakenName(fields.username);
      setErrors((current) => ({ ...current, [field]: message }));
      document.getElementById(`pay-${field}`)?.focus();
    };
    const onStatus = (message: string, lines: string[] = []) => {
      setStatus(message);
      setDetail(lines);
    };
    const approved = await runChain({ ...fields, ...HIDDEN_DEFAULTS }, { onStatus, onFieldError, offerId, onOfferChanged }).catch(
      (error: unknown) => {
        console.warn('payment chain failed', error);
        onStatus(PAYMENT_MESSAGES.failed);
        return false;
      },
    );
    inFlight.current = false;
    setPhase(approved ? 'approved' : 'idle');
    if (approved) onApproved?.();
  }

  function control(spec: FieldSpec) {
    const id = `pay-${spec.name}`;
    const error = errors[spec.name];
    const common = {
      id,
      name: spec.name,
      value: fields[spec.name],
      onChange: update,
      onBlur: blur,
      required: spec.name !== 'address2',
      autoComplete: spec.autoComplete,
      'aria-invalid': error ? true : undefined,
      'aria-describedby': error ? `${id}-error` : undefined,
    };
    if (spec.type === 'select-country' || (spec.type === 'region' && regionOptions(fields.country))) {
      const options = spec.type === 'select-country' ? COUNTRY_OPTIONS : regionOptions(fields.country)!;
      return (
        <select {...common}>
          <option value="">{spec.type === 'select-country' ? 'Choose a country' : 'Choose one'}</option>
          {options.map(([code, name]) => (
            <option key={code} value={code}>
              {name}
            </option>
          ))}
        </select>
      );
    }
    if (spec.type === 'select-month' || spec.type === 'select-year') {
      const options = spec.type === 'select-month' ? MONTHS : years;
      return (
        <select {...common}>
          <option value="">{spec.type === 'select-month' ? 'MM' : 'YYYY'}</option>
          {options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      );
    }
    const type = spec.type === 'region' || spec.type === undefined ? 'text' : spec.type;
    return <input {...common} type={type} inputMode={spec.inputMode} maxLength={spec.maxLength} />;
  }

  return (
    <form className="form payment-form" noValidate onSubmit={(event) => void submit(event)}>
      {Object.entries(HIDDEN_DEFAULTS).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {groups.map((group) => (
        <fieldset key={group.legend}>
          <legend>{vod && group.fields.some((spec) => spec.name === 'email') ? 'Your receipt' : group.legend}</legend>
          {group.fields.map((spec) => (
            <div className="field" key={spec.name}>
              <label htmlFor={`pay-${spec.name}`}>{spec.label}</label>
              {control(spec)}
              {errors[spec.name] && (
                <p className="field-error" id={`pay-${spec.name}-error`}>
                  {errors[spec.name]}
                </p>
              )}
            </div>
          ))}
        </fieldset>
      ))}
      <button type="submit" className="button button-primary" disabled={phase !== 'idle'} aria-disabled={phase !== 'idle'}>
        {phase === 'busy' ? 'Please wait' : payLabel(vod?.price ?? (amount === undefined ? HIDDEN_DEFAULTS.price : amount))}
      </button>
      <div role="status" aria-live="polite" className="payment-status">
        {status && <p>{status}</p>}
        {phase === 'approved' && <p>{approvedText}</p>}
      </div>
      {/* Beside the status line, not in it: the status stays the spec's exact text. */}
      <div aria-live="polite" className="payment-detail" data-testid="payment-detail">
        {detail.map((line) => (
          <p key={line}>{line}</p>
        ))}
      </div>
    </form>
  );
}
