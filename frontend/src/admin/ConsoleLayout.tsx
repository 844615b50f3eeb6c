import { useEffect } from 'react';
import { Link, matchPath, Outlet, useLocation } from 'react-router-dom';
import { screenPath, TITLES, type Screen } from './screens';
import { adminApi, type Me } from './shared/api';
import { ConfirmDialog } from './shared/ConfirmDialog';

/** The signed-in console around the screen the address names: the menu of the role's screens, who is signed in, Sign out. */
export function ConsoleLayout({ me, screens, onSignedOut }: { me: Me; screens: readonly Screen[]; onSignedOut: () => void }) {
  const { pathname } = useLocation();
  const named = screens.find((screen) => matchPath(screenPath(screen), pathname));
  const current = named ?? screens[0]!;
  const signOut = () => void adminApi.signOut().finally(onSignedOut);

  useEffect(() => {
    document.title = `${named ? TITLES[named] : 'Console'} · Operator console`;
  }, [named]);

  return (
    <div className="admin-shell">
      <header className="admin-header">
        <strong>Operator console</strong>
        <nav aria-label="Console">
          <ul>
            {screens.map((s) => (
              <li key={s}>
                {/* The screen shown already (at /admin too) adds no history entry. */}
                <Link
                  to={screenPath(s)}
                  aria-current={s === current ? 'page' : undefined}
                  onClick={(e) => {
                    if (s === current) e.preventDefault();
                  }}
                >
                  {TITLES[s]}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <p className="admin-who">
          Signed in as <strong>{me.name}</strong> ({me.role})
          <button type="button" onClick={signOut}>
            Sign out
          </button>
        </p>
      </header>
      <ConfirmDialog onSignedOut={onSignedOut} />
      <main className="admin-main">
        <Outlet />
      </main>
    </div>
  );
}
