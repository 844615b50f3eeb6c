import { useCallback, useEffect, useState } from 'react';
import { AdminApiError, adminApi, screensOf, type Me, type Screen } from './shared/api';
import { AuditLog } from './audit/AuditLog';
import { Content } from './content/Content';
import { Dashboard } from './dashboard/Dashboard';
import { Members } from './members/Members';
import { Reports } from './reports/Reports';
import { Admins } from './admins/Admins';
import { Ingest } from './ingest/Ingest';
import { ComingSoon } from './coming-soon/ComingSoon';
import { Passkeys } from './passkeys/Passkeys';
import { ConfirmDialog } from './shared/ConfirmDialog';
import { SignIn } from './sign-in/SignIn';

const TITLES: Record<Screen, string> = {
  dashboard: 'Dashboard',
  audit: 'Audit log',
  members: 'Members',
  reports: 'Reports',
  content: 'Content',
  admins: 'Admins',
  ingest: 'Ingest',
  'coming-soon': 'Coming soon',
  passkeys: 'Your passkeys',
};

/** The screen the address names, if it is one (the role may still not have it: then its first screen). */
function screenInPath(): Screen | undefined {
  const name = /^\/admin\/([a-z-]+)\/?$/.exec(window.location.pathname)?.[1];
  return name && Object.hasOwn(TITLES, name) ? (name as Screen) : undefined;
}

/** Signed in or not (GET /api/admin/me decides), then the screens the role may use. */
export function Console() {
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  // The address names the screen (/admin/<screen>): a reload, a bookmark and Back keep it.
  const [screen, setScreen] = useState<Screen | undefined>(screenInPath);
  useEffect(() => {
    const onPop = () => setScreen(screenInPath());
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const signedOut = useCallback(() => setMe(null), []);
  // The first check could not say who is signed in (the server is down or slow): not a sign-out.
  const [unreachable, setUnreachable] = useState('');
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    setUnreachable('');
    adminApi.me().then(setMe, (err: unknown) => {
      if (err instanceof AdminApiError && (err.status === 0 || err.status >= 500)) setUnreachable(err.message);
      else signedOut();
    });
  }, [signedOut, attempt]);

  useEffect(() => {
    document.title = me ? `${screen ? TITLES[screen] : 'Console'} · Operator console` : 'Sign in · Operator console';
  }, [me, screen]);

  if (me === undefined && unreachable)
    return (
      <div className="admin-loading" role="alert">
        <p>The console cannot reach the server: {unreachable}</p>
        <button type="button" onClick={() => setAttempt((n) => n + 1)}>
          Try again
        </button>
      </div>
    );
  if (me === undefined) return <p className="admin-loading">Loading…</p>;
  if (me === null) return <SignIn onSignedIn={setMe} />;

  const screens = screensOf(me.role);
  const current = screen && screens.includes(screen) ? screen : screens[0]!;
  const signOut = () => void adminApi.signOut().finally(signedOut);

  return (
    <div className="admin-shell">
      <header className="admin-header">
        <strong>Operator console</strong>
        <nav aria-label="Console">
          <ul>
            {screens.map((s) => (
              <li key={s}>
                <a
                  href={`/admin/${s}`}
                  aria-current={s === current ? 'page' : undefined}
                  onClick={(e) => {
                    e.preventDefault();
                    if (s !== current) window.history.pushState(null, '', `/admin/${s}`);
                    setScreen(s);
                  }}
                >
                  {TITLES[s]}
                </a>
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
      <ConfirmDialog onSignedOut={signedOut} />
      <main className="admin-main">
        <h1>{TITLES[current]}</h1>
        {current === 'dashboard' && <Dashboard onSignedOut={signedOut} />}
        {current === 'audit' && <AuditLog onSignedOut={signedOut} />}
        {current === 'members' && <Members onSignedOut={signedOut} />}
        {current === 'reports' && <Reports onSignedOut={signedOut} />}
        {current === 'content' && <Content onSignedOut={signedOut} canChange={me.role !== 'support'} />}
        {current === 'admins' && <Admins me={me.name} onSignedOut={signedOut} />}
        {current === 'ingest' && <Ingest onSignedOut={signedOut} />}
        {current === 'coming-soon' && <ComingSoon onSignedOut={signedOut} />}
        {current === 'passkeys' && <Passkeys onSignedOut={signedOut} />}
      </main>
    </div>
  );
}
