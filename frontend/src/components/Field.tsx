import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from 'react';

/** One labelled row of a form: `<div className="field">`, its label, then the control (and any note under it). */
export function Field({ id, label, children }: { id: string; label: ReactNode; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
    </div>
  );
}

type Controlled<Attributes> = Omit<Attributes, 'id' | 'value' | 'onChange' | 'children'> & {
  id: string;
  label: ReactNode;
  value: string;
  /** The new text, on every change. */
  onValue: (value: string) => void;
  /** Shown under the control, inside the row (a character count, say). */
  children?: ReactNode;
};

/** A labelled `<input>` holding a string; every other attribute goes to the input as written. */
export function InputField({ id, label, value, onValue, children, ...input }: Controlled<InputHTMLAttributes<HTMLInputElement>>) {
  return (
    <Field id={id} label={label}>
      <input id={id} {...input} value={value} onChange={(e) => onValue(e.target.value)} />
      {children}
    </Field>
  );
}

/** A labelled `<textarea>`; every other attribute goes to the textarea as written. */
export function TextAreaField({ id, label, value, onValue, children, ...area }: Controlled<TextareaHTMLAttributes<HTMLTextAreaElement>>) {
  return (
    <Field id={id} label={label}>
      <textarea id={id} {...area} value={value} onChange={(e) => onValue(e.target.value)} />
      {children}
    </Field>
  );
}

/** Passwords are 8 to 64 characters (spec): the browser holds a new one to both, a current one to the upper bound only. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 64;

/**
 * A required password input. `purpose` picks the password manager's hint (`current-password` or
 * `new-password`) and, for a new one, the lower bound as well.
 */
export function PasswordField({
  purpose,
  ...field
}: {
  purpose: 'current' | 'new';
  id: string;
  label: ReactNode;
  value: string;
  onValue: (value: string) => void;
  name?: string;
}) {
  return (
    <InputField
      {...field}
      type="password"
      autoComplete={`${purpose}-password`}
      required
      minLength={purpose === 'new' ? PASSWORD_MIN : undefined}
      maxLength={PASSWORD_MAX}
    />
  );
}

/** What the form checks before sending a new password (the server holds it to the same bounds). */
export function passwordLengthOk(password: string): boolean {
  return password.length >= PASSWORD_MIN && password.length <= PASSWORD_MAX;
}
