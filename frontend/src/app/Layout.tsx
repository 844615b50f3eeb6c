import { Suspense, useLayoutEffect } from 'react';
import { Link, Outlet, useLocation } from 'react-router-dom';
import { NavBar } from './NavBar';
import { RouteErrorBoundary } from './RouteErrorBoundary';
import { routeTitle } from './routeTitles';
import { Loading } from '../components/StatusMessage';
import { MaintenanceBanner } from '../components/MaintenanceBanner';
import { AgeGate } from '../features/age-gate/components/AgeGate';
import { FREE_SETS_ID } from '../features/home/freeSets';
import { SITE_NAME } from '../config/site';
import { useHeadingFocus } from '../hooks/useHeadingFocus';
import { pageTitle } from '../hooks/usePageTitle';
import { useScrollRestoration } from '../hooks/useScrollRestoration';

// Inside the /join page's frame only the form is wanted, not a second copy of the site.
const framed = typeof window !== 'undefined' && window.self !== window.top;

export function Layout() {
  const { pathname } = useLocation();

  useScrollRestoration();
  useHeadingFocus(pathname, 'main');
  // A layout effect runs before the pages' own (passive) usePageTitle effects, which then win.
  useLayoutEffect(() => {
    document.title = pageTitle(routeTitle(pathname));
  }, [pathname]);

  const page = (
    <RouteErrorBoundary key={pathname}>
      <Suspense fallback={<Loading />}>
        <Outlet />
      </Suspense>
    </RouteErrorBoundary>
  );

  if (framed)
    return (
      <main id="main" className="site-main">
        {page}
      </main>
    );

  return (
    <>
      <NavBar />
      <MaintenanceBanner />
      <main id="main" className="site-main" tabIndex={-1}>
        <AgeGate pathname={pathname}>{page}</AgeGate>
      </main>
      <footer className="site-footer">
        <p>
          <Link to="/2257">18 U.S.C. 2257 Record-Keeping Requirements Compliance Statement</Link>
        </p>
        <p>
          <Link to="/contact">Contact and content reports</Link> · <Link to={`/#${FREE_SETS_ID}`}>Free photo sets</Link> · © {SITE_NAME}
        </p>
      </footer>
    </>
  );
}
