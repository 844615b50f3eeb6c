import { NavLink } from 'react-router-dom';
import { SITE_NAME } from '../config/site';
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

export function NavBar() {
  // Members get their account where visitors get Join.
  const signedIn = useSession().status === 'signedIn';
  const links = signedIn ? LINKS.map(([to, label]): [string, string] => (to === '/join' ? ['/account', 'Account'] : [to, label])) : LINKS;
  return (
    <header className="site-header">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <NavLink to="/" className="brand">
        {SITE_NAME}
      </NavLink>
      <nav aria-label="Main">
        <ul className="nav-links">
          {links.map(([to, label]) => (
            <li key={to}>
              <NavLink to={to} end={to === '/'}>
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
