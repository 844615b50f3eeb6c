import { useEffect, useRef, useState } from 'react';
import type { KeyboardEvent, ReactNode } from 'react';
import { Link } from 'react-router-dom';

export const AGE_CONFIRMED_KEY = 'ageConfirmed';
const LEAVE_URL = 'https://www.google.com/';
// Legal texts and the report/appeal process stay readable to anyone, confirmed or not: someone
// appealing a takedown must not have to declare anything first.
const OPEN_PATHS = [/^\/2257$/, /^\/contact$/, /^\/reports\/[^/]+\/appeal$/];

export function isOpenPath(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/(?<!\/)\/+$/, '') : pathname;
  return OPEN_PATHS.some((pattern) => pattern.test(path));
}

function readConfirmed(): boolean {
  try {
    return window.localStorage.getItem(AGE_CONFIRMED_KEY) === 'true';
  } catch {
    return false;
  }
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), [tabindex]:not([tabindex="-1"])';

// Tab and Shift+Tab go round the dialog's own controls and never leave it.
function trapTab(event: KeyboardEvent<HTMLDialogElement>) {
  if (event.key !== 'Tab') return;
  const controls = [...event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)];
  const first = controls[0];
  const last = controls[controls.length - 1];
  if (!first || !last) return;
  const active = document.activeElement;
  if (event.shiftKey && (active === first || !event.currentTarget.contains(active))) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || !event.currentTarget.contains(active))) {
    event.preventDefault();
    first.focus();
  }
}

export function AgeGate({ pathname, children }: { pathname: string; children: ReactNode }) {
  const [confirmed, setConfirmed] = useState(readConfirmed);
  const dialog = useRef<HTMLDialogElement>(null);
  const enter = useRef<HTMLButtonElement>(null);
  const confirmedRef = useRef(confirmed);
  confirmedRef.current = confirmed;
  const open = confirmed || isOpenPath(pathname);

  useEffect(() => {
    const element = dialog.current;
    if (open || !element) return undefined;
    // A modal dialog: the page behind is inert and Escape cannot close it. Where showModal is
    // missing (old browsers, jsdom) the dialog is shown in place and the focus trap still holds.
    const show = () => {
      if (element.open) return;
      if (typeof element.showModal === 'function') element.showModal();
      else element.setAttribute('open', '');
      enter.current?.focus();
    };
    // Chromium may close a dialog on a repeated Escape even when `cancel` is refused: reopen it.
    const reopen = () => {
      if (!confirmedRef.current) show();
    };
    show();
    element.addEventListener('close', reopen);
    return () => {
      element.removeEventListener('close', reopen);
      if (element.open && typeof element.close === 'function') element.close();
    };
  }, [open]);

  if (open) return <>{children}</>;

  function confirm() {
    try {
      window.localStorage.setItem(AGE_CONFIRMED_KEY, 'true');
    } catch {
      // Private modes may refuse storage; the visitor still gets in for this page view.
    }
    confirmedRef.current = true;
    setConfirmed(true);
  }

  return (
    <dialog
      ref={dialog}
      className="panel age-gate"
      aria-labelledby="age-gate-title"
      onCancel={(event) => event.preventDefault()}
      onKeyDown={(event) => {
        if (event.key === 'Escape') event.preventDefault();
        trapTab(event);
      }}
    >
      <h1 id="age-gate-title">Adults only</h1>
      <p>
        This website contains adult material. Enter only if you are at least 18 years old (or the age of majority where you live) and such
        material is legal for you to view.
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
    </dialog>
  );
}
