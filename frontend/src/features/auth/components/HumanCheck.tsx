import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type {} from 'altcha/types/react';

/**
 * The proof of work a sign-in past its account's budget needs: the ALTCHA widget fetches a
 * challenge from the bff, solves it in a worker (about a second) and hands over the payload, which
 * the form sends with the next attempt. Remount (a new `key`) for a fresh challenge.
 */
export function HumanCheck({ onVerified }: { onVerified: (payload: string) => void }) {
  const widget = useRef<HTMLElement>(null);
  const [loaded, setLoaded] = useState(false);
  const [failed, setFailed] = useState(false);
  const latest = useRef(onVerified);
  latest.current = onVerified;

  useEffect(() => {
    let live = true;
    import('./altchaWidget').then(
      () => live && setLoaded(true),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, []);

  // A layout effect: the listener is on the widget when it is committed, so a 'verified' that comes
  // before a passive effect would have run (a loaded machine) is not lost.
  useLayoutEffect(() => {
    const element = widget.current;
    if (!element) return;
    const verified = (event: Event) => {
      const payload = (event as CustomEvent<{ payload?: string }>).detail?.payload;
      if (payload) latest.current(payload);
    };
    element.addEventListener('verified', verified);
    return () => element.removeEventListener('verified', verified);
  }, [loaded]);

  if (failed) return <p className="status status-error">The confirmation could not be loaded. Reload the page and try again.</p>;
  return (
    <div className="human-check">
      <altcha-widget ref={widget} challenge="/api/login-challenge" auto="onload" name="altcha" />
    </div>
  );
}
