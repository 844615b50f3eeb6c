import { useEffect, useRef, useState } from 'react';
import { NavLink, useLocation } from 'react-router-dom';
import { SITE_LOGO, SITE_NAME } from '../config/site';
import { SearchBox } from '../components/SearchBox';
import { SessionLink } from '../features/auth/components/SessionLink';
import { useSession } from '../hooks/useSession';

const LINKS: [string, string][] = [
  ['/', 'Home'],
  ['/privatesales', 'Private Sales'],
  ['/vod', 'VOD'],
  ['/photos', 'Photos'],
  ['/videos', 'Videos'],
  ['/join', 'Join'],
  ['/models', 'Models'],
  ['/links', 'Links'],
  ['/contact', 'Contact'],
  ['/affiliates', 'Affiliates'],
];

/** On a phone the links fold behind a Menu button (styles.css); on wider screens they always show. */
function useMenu() {
  // Open for one history entry only: any navigation (a link, Back) closes it.
  const { key } = useLocation();
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === key;
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return undefined;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpenOn(null);
      button.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  // A link closes it at once: the router may keep the old location until a lazy page has loaded.
  return { open, button, toggle: () => setOpenOn(open ? null : key), close: () => setOpenOn(null) };
}

export function NavBar() {
  // Members get their account where visitors get Join.
  const session = useSession();
  const member = session.status === 'signedIn' ? session.member.username : null;
  const links = member ? LINKS.map(([to, label]): [string, string] => (to === '/join' ? ['/account', 'Account'] : [to, label])) : LINKS;
  const menu = useMenu();
  return (
    <header className={member ? 'site-header signed-in' : 'site-header'}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <NavLink to="/" className="brand">
        {/* The name beside it says what it is. */}
        <img className="brand-logo" src={SITE_LOGO} alt="" width={28} height={28} />
        <span className="brand-name">{SITE_NAME}</span>
      </NavLink>
      <button
        type="button"
        ref={menu.button}
        className="button menu-button"
        aria-expanded={menu.open}
        aria-controls="main-nav"
        onClick={menu.toggle}
      >
        Menu
      </button>
      <nav id="main-nav" aria-label="Main" className={menu.open ? 'main-nav open' : 'main-nav'}>
        {/* Under 1200 px (styles.css): the menu says who is signed in, with My list (a phone's row has no room for it); wider screens show both at the row's end. */}
        {member && (
          <p className="menu-member">
            Signed in as {member} ·{' '}
            <NavLink to="/my-list" onClick={menu.close}>
              My list
            </NavLink>
          </p>
        )}
        <ul className="nav-links">
          {links.map(([to, label]) => (
            <li key={to}>
              {/* Join is drawn as a button: it is what a visitor is here to do. */}
              <NavLink to={to} end={to === '/'} onClick={menu.close} className={to === '/join' ? 'nav-join' : undefined}>
                {label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <SearchBox />
      <SessionLink />
    </header>
  );
}
