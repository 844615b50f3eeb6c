import { useEffect, useState } from 'react';
import { MAINTENANCE_TEXT, type SiteStatus } from '@media-site/contracts/site-status';
import { readSiteStatus } from '../features/api/maintenance';

/** How often an open page asks again whether the site is in maintenance (while the tab is shown). */
const CHECK_MS = 60_000;

/** Every page's banner while the site is in maintenance: what is paused, what works, the operator's words. */
export function MaintenanceBanner() {
  const [maintenance, setMaintenance] = useState<SiteStatus['maintenance']>(null);
  useEffect(() => {
    const controller = new AbortController();
    const check = () =>
      void readSiteStatus(controller.signal).then((status) => {
        if (status) setMaintenance(status.maintenance);
      });
    check();
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'visible') check();
    }, CHECK_MS);
    return () => {
      controller.abort();
      window.clearInterval(timer);
    };
  }, []);
  if (!maintenance) return null;
  return (
    <div className="maintenance-banner" role="status">
      <p>
        {MAINTENANCE_TEXT}
        {maintenance.message && <> {maintenance.message}</>}
      </p>
    </div>
  );
}
