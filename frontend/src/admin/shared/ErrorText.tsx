import { useEffect, useRef } from 'react';

/** An API error shown as text, announced and focused so a keyboard or screen-reader user meets it. */
export function ErrorText({ message }: { message: string }) {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => ref.current?.focus(), [message]);
  if (!message) return null;
  return (
    <p ref={ref} className="admin-error" role="alert" tabIndex={-1}>
      {message}
    </p>
  );
}
