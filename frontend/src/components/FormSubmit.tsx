import { useState, type CSSProperties, type FormEvent } from 'react';

/** A form's answer: what was done, or what went wrong, in words for the member. */
export type FormMessage = { ok: boolean; text: string } | null;

/**
 * A form that sends once at a time: `submit` clears the last answer, keeps the button busy while
 * `action` runs, and shows what it resolves to or what `problem` says of its error.
 */
export function useFormSubmit() {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<FormMessage>(null);

  async function submit(event: FormEvent, action: () => Promise<string>, problem: (error: unknown) => string) {
    event.preventDefault();
    setBusy(true);
    setMessage(null);
    try {
      setMessage({ ok: true, text: await action() });
    } catch (error) {
      setMessage({ ok: false, text: problem(error) });
    } finally {
      setBusy(false);
    }
  }

  return { busy, message, setMessage, submit };
}

/** The submit button (its busy label while sending) and the polite status line under it. */
export function SubmitWithStatus({
  busy,
  label,
  busyLabel,
  message,
  style,
}: {
  busy: boolean;
  label: string;
  busyLabel: string;
  message: FormMessage;
  style?: CSSProperties;
}) {
  return (
    <>
      <button type="submit" className="button button-primary" disabled={busy}>
        {busy ? busyLabel : label}
      </button>
      <div role="status" aria-live="polite">
        {message && (
          <p className={message.ok ? 'status status-ok' : 'status status-error'} style={style}>
            {message.text}
          </p>
        )}
      </div>
    </>
  );
}
