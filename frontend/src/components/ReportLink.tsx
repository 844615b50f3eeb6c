import { Link } from 'react-router-dom';

/** The report form's address with this item filled in (`ReportForm` reads `?item=`). */
export function reportHref(path: string): string {
  return `/contact?item=${encodeURIComponent(path)}`;
}

/** "Report this" under an item: the report form on /contact with the item's address already in it. */
export function ReportLink({ path }: { path: string }) {
  return (
    <p className="report-link">
      <Link to={reportHref(path)}>Report this</Link>
    </p>
  );
}
