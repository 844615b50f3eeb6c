import { Suspense, useEffect } from 'react';
import { Link, Outlet, useLocation, useNavigationType } from 'react-router-dom';
import { NavBar } from './NavBar';
import { RouteErrorBoundary } from './RouteErrorBoundary';
import { Loading } from '../components/StatusMessage';
import { AgeGate } from '../features/age-gate/components/AgeGate';
import { SITE_NAME } from '../config/site';

// Inside the /join page's frame only the form is wanted, not a second copy of the site.
const framed = typeof window !== 'undefined' && window.self !== window.top;

export function Layout() {
  const { pathname } = useLocation();
  const navigationType = useNavigationType();

  useEffect(() => {
    // New pages start at the top; back/forward leaves the position to the page (/vod restores its own).
    if (navigationType !== 'POP') window.scrollTo(0, 0);
  }, [pathname, navigationType]);

  const page = (
    <RouteErrorBoundary key={pathname}>
      <Suspense fallback={<Loading />}>
        <Outlet />
      </Suspense>
    </RouteErrorBoundary>
  );

  if (framed) return <main id="main" className="site-main">{page}</main>;

  return (
    <>
      <NavBar />
      <main id="main" className="site-main" tabIndex={-1}>
        <AgeGate pathname={pathname}>{page}</AgeGate>
      </main>
      <footer className="site-footer">
        <p>
          <Link to="/2257">18 U.S.C. 2257 Record-Keeping Requirements Compliance Statement</Link>
        </p>
        <p>
          <Link to="/contact">Contact and content reports</Link> · © {SITE_NAME}
        </p>
      </footer>
    </>
  );
}
