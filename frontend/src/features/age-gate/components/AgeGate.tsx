import { useEffect, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

export const AGE_CONFIRMED_KEY = 'ageConfirmed';
const LEAVE_URL = 'https://www.google.com/';
// Legal texts stay readable to anyone, confirmed or not.
const OPEN_PATHS = new Set(['/2257', '/contact']);

function readConfirmed(): boolean {
  try {
    return window.localStorage.getItem(AGE_CONFIRMED_KEY) === 'true';
  } catch {
    return false;
  }
}

export function AgeGate({ pathname, children }: { pathname: string; children: ReactNode }) {
  const [confirmed, setConfirmed] = useState(readConfirmed);
  const enter = useRef<HTMLButtonElement>(null);
  const open = confirmed || OPEN_PATHS.has(pathname);

  useEffect(() => {
    if (!open) enter.current?.focus();
  }, [open]);

  if (open) return <>{children}</>;

  function confirm() {
    try {
      window.localStorage.setItem(AGE_CONFIRMED_KEY, 'true');
    } catch {
      // Private modes may refuse storage; the visitor still gets in for this page view.
    }
    setConfirmed(true);
  }

  return (
    <section className="panel age-gate" role="dialog" aria-modal="true" aria-labelledby="age-gate-title">
      <h1 id="age-gate-title">Adults only</h1>
      <p>
        This website contains adult material. Enter only if you are at least
        18 years old (or the age of majority where you live) and such material is legal for you to view.
      </p>
      <div className="button-row">
        <button type="button" className="button button-primary" ref={enter} onClick={confirm}>
          I am 18 or older – Enter
        </button>
        <button type="button" className="button" onClick={() => window.location.assign(LEAVE_URL)}>
          Leave
        </button>
      </div>
      <p className="fine-print">
        See the <Link to="/2257">2257 compliance statement</Link> or <Link to="/contact">contact us</Link>.
      </p>
    </section>
  );
}
