import { useState, type CSSProperties, type FormEvent } from 'react';

/** A form's answer: what was done, or what went wrong, in words for the member. */
export type FormMessage = { ok: boolean; text: string } | null;

/** A failure's words as a form message, or none for the empty string. */
export function errorMessage(text: string): FormMessage {
  return text ? { ok: false, text } : null;
}

/**
 * A form that sends once at a time: `submit` clears the last answer, keeps the button busy while
 * `action` runs, and shows what it resolves to (nothing when it resolves to no text: the page
 * shows the outcome itself) or what `problem` says of its error.
 */
export function useFormSubmit() {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<FormMessage>(null);

  async function submit(event: FormEvent, action: () => Promise<string | void>, problem: (error: unknown) => string) {
    event.preventDefault();
    setBusy(true);
    setMessage(null);
    try {
      const text = await action();
      if (typeof text === 'string') setMessage({ ok: true, text });
    } catch (error) {
      setMessage({ ok: false, text: problem(error) });
    } finally {
      setBusy(false);
    }
  }

  return { busy, message, setMessage, submit };
}

/** The form's submit button, showing its busy label while sending. */
export function SubmitButton({ busy, label, busyLabel }: { busy: boolean; label: string; busyLabel: string }) {
  return (
    <button type="submit" className="button button-primary" disabled={busy}>
      {busy ? busyLabel : label}
    </button>
  );
}

/** The polite status line under a form: its last answer, if any. */
export function FormStatus({ message, style }: { message: FormMessage; style?: CSSProperties }) {
  return (
    <div role="status" aria-live="polite">
      {message && (
        <p className={message.ok ? 'status status-ok' : 'status status-error'} style={style}>
          {message.text}
        </p>
      )}
    </div>
  );
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
      <SubmitButton busy={busy} label={label} busyLabel={busyLabel} />
      <FormStatus message={message} style={style} />
    </>
  );
}
