import type { ReactElement } from 'react';
import { Route, Routes } from 'react-router-dom';
import { Admins } from './admins/Admins';
import { AuditLog } from './audit/AuditLog';
import { ComingSoon } from './coming-soon/ComingSoon';
import { ConsoleLayout } from './ConsoleLayout';
import { Content } from './content/Content';
import { Dashboard } from './dashboard/Dashboard';
import { Ingest } from './ingest/Ingest';
import { Members } from './members/Members';
import { Passkeys } from './passkeys/Passkeys';
import { Prices } from './prices/Prices';
import { Queues } from './queues/Queues';
import { Reports } from './reports/Reports';
import { Stats } from './stats/Stats';
import { screenPath, screensOf, TITLES, type Screen } from './screens';
import type { Me } from './shared/api';

interface Session {
  me: Me;
  /** Back to sign-in: a call answered 401 (the session ended), or Sign out. */
  onSignedOut: () => void;
}

const SCREEN: Record<Screen, (session: Session) => ReactElement> = {
  dashboard: ({ onSignedOut }) => <Dashboard onSignedOut={onSignedOut} />,
  stats: ({ me, onSignedOut }) => <Stats onSignedOut={onSignedOut} money={me.role !== 'moderator'} />,
  audit: ({ onSignedOut }) => <AuditLog onSignedOut={onSignedOut} />,
  members: ({ onSignedOut }) => <Members onSignedOut={onSignedOut} />,
  prices: ({ me, onSignedOut }) => <Prices onSignedOut={onSignedOut} canChange={me.role === 'owner'} />,
  reports: ({ onSignedOut }) => <Reports onSignedOut={onSignedOut} />,
  content: ({ me, onSignedOut }) => <Content onSignedOut={onSignedOut} canChange={me.role !== 'support'} />,
  admins: ({ me, onSignedOut }) => <Admins me={me.name} onSignedOut={onSignedOut} />,
  ingest: ({ onSignedOut }) => <Ingest onSignedOut={onSignedOut} />,
  queues: ({ onSignedOut }) => <Queues onSignedOut={onSignedOut} />,
  'coming-soon': ({ onSignedOut }) => <ComingSoon onSignedOut={onSignedOut} />,
  passkeys: ({ onSignedOut }) => <Passkeys onSignedOut={onSignedOut} />,
};

/** /admin/<screen> for each screen the role may see; /admin and any other address show its first screen. */
export function ConsoleRoutes(session: Session) {
  const screens = screensOf(session.me.role);
  const page = (screen: Screen) => (
    <>
      <h1>{TITLES[screen]}</h1>
      {SCREEN[screen](session)}
    </>
  );
  return (
    <Routes>
      <Route element={<ConsoleLayout me={session.me} screens={screens} onSignedOut={session.onSignedOut} />}>
        {screens.map((screen) => (
          <Route key={screen} path={screenPath(screen)} element={page(screen)} />
        ))}
        <Route path="*" element={page(screens[0]!)} />
      </Route>
    </Routes>
  );
}
